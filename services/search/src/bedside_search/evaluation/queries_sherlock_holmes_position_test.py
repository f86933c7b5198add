"""A fresh position TEST set for the Holmes collection (../shared/corpus/adventures_of_sherlock_holmes.json).

Written 2026-11-30, after the rule for book-level position words ("the opening case", "the
last story in the book") had been fixed, to report honestly how that rule does. Written
without reading the rule or any ranking code, and without running the searcher or the
evaluation: only the stories themselves were read. The book is twelve stories, one per
chapter. Run it once, report the number, and never tune on it; the tuning set is
``queries_sherlock_holmes_position``.

Two groups. POSITION: the listener says roughly where in the book the moment is, worded
differently from the tuning set (and sometimes at the middle or end of the sentence), for
a moment that really lies in the first two stories or the last two (11, 12), mostly
moments the tuning set does not ask about. CONTROL: position-like words about a place
inside ONE story or not about place at all ("his final words", "the first of the
envelopes", "the end of his working day", "when the trip begins"), for stories 4-9, so a
rule that jumps to the start or end of the book on any such word is caught. Phrased as a
sleepy listener remembers them, story numbers checked against the text, nothing quoted.
"""

from bedside_search.evaluation.queryset import NavigationQuery, query

BOOK = "adventures_of_sherlock_holmes"

QUERIES: tuple[NavigationQuery, ...] = (
    # --- position: the moment really is in the first two stories or the last two ---
    query(
        "way back at the beginning, Holmes working out that Watson got soaked and has a clumsy maid "
        "just from the scrapes on his boot",
        1,
    ),
    query(
        "in the opening case, the letter paper held up to the light, and the letters pressed into it "
        "tell Holmes which country it came from",
        1,
    ),
    query(
        "the story that kicks the book off, Holmes dressed as a sweet old vicar pretends to get hurt "
        "in a street punch-up so they carry him into her house",
        1,
    ),
    query(
        "the crowds of ginger-haired men jammed all down the street queuing for the job, in the second story",
        2,
    ),
    query(
        "near the start of the book, the man doing the interview yanks the pawnbroker's hair till he "
        "yelps to check it isn't a wig",
        2,
    ),
    query(
        "when the book has barely started, the clerk turns up for work and finds the door locked with "
        "a little card pinned on saying the club is finished",
        2,
    ),
    query(
        "the cheap shop assistant who's always nipping down to the basement to develop his photos, "
        "back in the early part of the collection",
        2,
    ),
    query(
        "one of the last few stories, a well-off man comes running down the snowy street flapping "
        "his arms about like he's lost his mind",
        11,
    ),
    query(
        "nearly the end of the audiobook, Holmes points a gun at the rogue's head and buys the stolen "
        "stones back for a thousand pounds each",
        11,
    ),
    query(
        "in the last adventure, the man hiring her chuckles about his little boy squashing bugs with "
        "a slipper",
        12,
    ),
    query(
        "looking out of the train, Holmes says the pretty farmhouses scare him more than the worst "
        "city slums, in the one that closes the book",
        12,
    ),
    query(
        "the governess finding a bundle of hair just like the hair she'd cut off, locked away in a "
        "drawer, right near the finish of the collection",
        12,
    ),
    query(
        "at the tail end of the book, they break into the locked room and it's empty, the roof window "
        "open and a ladder left against the house",
        12,
    ),
    query(
        "the very last page, where Watson grumbles that Holmes lost interest in her once the puzzle "
        "was solved and she ends up running a school",
        12,
    ),
    # --- control: position words inside ONE story, or not about place, for stories 4-9 ---
    query(
        "the dying father's final words, something about a rat, which Holmes turns into a place in "
        "Australia with a map",
        4,
    ),
    query(
        "the first of the envelopes with the dried seeds in it, spilling onto the uncle's breakfast plate",
        5,
    ),
    query(
        "at the start of the night, Watson goes to drag a friend's husband out of a smoky drug den "
        "and finds Holmes in there dressed as an old man",
        6,
    ),
    query(
        "at the end of his working day as a beggar, he's changing clothes upstairs when he sees his "
        "wife staring up at the window from the street",
        6,
    ),
    query(
        "the last straw for the grumpy goose seller, sick of people asking about his birds, until "
        "Holmes gets him talking with a bet",
        7,
    ),
    query(
        "the ending of the blue stone story, the hotel worker sobbing and Holmes just opens the door "
        "and tells him to clear off",
        7,
    ),
    query(
        "first thing in the morning, Holmes wakes Watson because a frightened young woman in black "
        "has turned up, so he won't miss it from the very beginning",
        8,
    ),
    query(
        "when the trip begins, the engineer is bundled into a carriage and driven for an hour with "
        "windows he can't see through",
        9,
    ),
)
