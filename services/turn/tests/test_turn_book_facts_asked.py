"""The title, the author and the reader asked as a sleepy listener says it (voice: lower case, no
apostrophes, a recogniser's slips), and the story's own questions and moments near those words,
which stay questions and searches. Before, "the book what is it called" was searched for and "whats
the authors name" asked of the story."""

import pytest
from bedside_turn.domain import intents
from bedside_turn.domain.intents import AboutTheBook, FindPlace, Question


@pytest.mark.parametrize(
    ("utterance", "fact"),
    [
        ("whats the name of this book", "title"),
        ("book title", "title"),
        ("the books name", "title"),
        ("the book what is it called", "title"),
        ("this story whats it called again", "title"),
        ("remind me what this book is", "title"),
        ("tell me the name of the book", "title"),
        ("what book am i listening to", "title"),
        ("whats the title", "title"),
        ("what's the title again", "title"),
        ("what was this book called again", "title"),
        ("whats this story called", "title"),
        ("which book is this", "title"),
        ("remind me what the book is called please", "title"),
        ("who's the author again", "author"),
        ("whose the author", "author"),  # the recogniser's "whose" for "who's"
        ("whats the authors name", "author"),
        ("what's the author's name again", "author"),
        ("what is the name of the author", "author"),
        ("who wrote it", "author"),
        ("who wrote this book again", "author"),
        ("who is this by", "author"),
        ("who's it by", "author"),
        ("whos this book by", "author"),
        ("tell me who wrote this", "author"),
        ("remind me who the author is", "author"),
        ("who's reading", "reader"),
        ("whose reading this", "reader"),  # the recogniser's "whose" again
        ("whose voice is this", "reader"),
        ("who is reading this book", "reader"),
        ("who's the narrator of this audiobook", "reader"),  # the recording's narrator, not the story's
        ("who is the reader", "reader"),
        ("whats the readers name", "reader"),
        ("who's doing the reading", "reader"),
        ("who narrates this audiobook", "reader"),
        ("who reads it", "reader"),
        ("tell me who is reading this", "reader"),
        # (review) past tense names this book or asks again; the recogniser's "whose" for the reader too;
        # the recording narrated now, or named, is the reader's
        ("what was the book called again", "title"),
        ("what was this story called", "title"),
        ("the book what was it called again", "title"),
        ("whose the reader", "reader"),
        ("whose doing the reading", "reader"),
        ("who's the narrator of this recording", "reader"),
        ("who is narrating this story", "reader"),  # narrating now: the recording's narrator
    ],
)
def test_the_title_the_author_and_the_reader_asked_in_everyday_words(
    utterance: str, fact: intents.BookFact
) -> None:
    assert intents.read(utterance) == AboutTheBook(fact)


@pytest.mark.parametrize(
    "utterance",
    [
        "whats the name of the horse",
        "what's the horses name",
        "whats the captains name",
        "what's the name of the ship",
        "whats the name of this place",
        "what's this place called",
        "what's this song called",
        "what is the name of the book in his hand",
        "what book is she reading",
        "what was the book he was reading",
        "what's the title of the book she finds",
        "what is the book called that he gives her",
        "who wrote the letter",
        "who wrote this letter",
        "who wrote it down",
        "who wrote to her",
        "who wrote the note to the captain",
        "who wrote the book he found",
        "what did the author of the letter say",
        "who's the author of the poem",
        "who is the writer of the letter",
        "who is this by the gate",
        "who is that by the door",
        "whose voice is that in the garden",
        "whose voice did he hear",
        "who is reading the letter",
        "who is reading to her",
        "who was reading to the children",
        "who read the letter",
        "who reads the will",
        # the narrator is the story's teller, who in a book told in the first person is one of its people
        # (Black Beauty is told by the horse): only the recording's narrator is the reader
        "who is the narrator",
        "who is the narrator of this book",
        "whats the narrators name",
        "what did the narrator say about the storm",
        "remind me what the letter said",
        # (review) each read as the title or the reader: a book named in the past tense is usually one in
        # the story, a voice "that" or "it" is someone's in it, and the story's narrator is its teller
        "what was the book called",
        "what was the story called",
        "whose voice is that",
        "whose voice is it",
        "who narrates the story",
        "who narrates it",
        # what the story is, told, asks its gist as "what the story is about" does, not its title
        "tell me what the story is",
        "remind me what the story is",
    ],
)
def test_the_storys_own_names_writers_and_readers_stay_questions(utterance: str) -> None:
    assert intents.read(utterance) == Question(utterance)


@pytest.mark.parametrize(
    ("utterance", "query"),
    [
        ("take me to where he reads the book", "he reads the book"),
        ("go back to where she reads the letter aloud", "she reads the letter aloud"),
        ("go back to the bit where they read out the title", "they read out the title"),
        ("the bit where the author of the letter is named", "the author of the letter is named"),
        ("take me to where she asks what the book is called", "she asks what the book is called"),
    ],
)
def test_moments_of_reading_and_writing_stay_searches(utterance: str, query: str) -> None:
    read = intents.read(utterance)
    assert isinstance(read, FindPlace)
    assert read.query == query
