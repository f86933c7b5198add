"""A final fresh test set for how search reads placings, for The Adventures of Sherlock Holmes.

Corpus file ../shared/corpus/adventures_of_sherlock_holmes.json, one chapter per story.
Written on 2026-11-30 as a last, untouched test of how search handles a listener saying
roughly where in the whole book a moment lies ("the first story", "right at the end of the
book"). It was written from the book alone, without reading the served rule, the search
code or the earlier position sets, and is meant to be run exactly once so that its number
can be reported honestly. Never tune on it.

Two groups. The first asks for moments in the opening stories (1-2) or the closing stories
(11-12) and says so, in varied everyday words. The second is a control: moments from the
middle stories (4-9) whose wording contains words such as first, start, early, end, last
or final that speak of an event or of one story's own ending, not of a place in the book.
Chapter numbers were checked against the text; nothing of the book is quoted.
"""

from bedside_search.evaluation.queryset import NavigationQuery, query

BOOK = "adventures_of_sherlock_holmes"

QUERIES: tuple[NavigationQuery, ...] = (
    # Placed in the book: the moment is near the beginning or near the end, and the listener says so.
    query("right at the start of the book, the king who shows up in a mask worried about an old photo", 1),
    query(
        "early in the collection, Holmes dressed as a scruffy stable hand "
        "gets roped in as the witness at a rushed wedding",
        1,
    ),
    query(
        "the first story, where they fake a fire with a smoke bomb so "
        "she gives away where the picture is hidden",
        1,
    ),
    query("she slips away and leaves him a note and a picture of herself, back at the very beginning", 1),
    query(
        "second story in, the pawnbroker with bright red hair who gets paid to copy out the encyclopedia", 2
    ),
    query("near the beginning of the book, thumping the pavement with his stick outside the pawnshop", 2),
    query(
        "early on, sitting in the pitch dark bank vault waiting for the thieves to come up through the floor",
        2,
    ),
    query(
        "towards the end of the book, the banker who catches his own son at "
        "night holding the precious crown with a bit broken off",
        11,
    ),
    query(
        "nearly at the end, Holmes gets the stolen jewels back by paying a thousand pounds apiece for them",
        11,
    ),
    query("in the second to last story, the quiet niece runs off with the smooth-talking crook", 11),
    query("the very last story, the governess who's asked to chop her hair short to get the job", 12),
    query(
        "last adventure in the book, she has to wear a certain blue "
        "dress and sit with her back to the window",
        12,
    ),
    query(
        "the huge half-starved guard dog that goes for its own "
        "master's throat, right at the finish of the book",
        12,
    ),
    query("one of the last things in the book, the shut-up part of the house she's told to keep out of", 12),
    # Control: middle stories, with words like first/start/end/last that are about the events, not the book.
    query("the father's last words before he died, something about a rat", 4),
    query("the young man's last visit to Baker Street before he's found drowned near the bridge", 5),
    query("how the orange pips case ends, with the killers' ship lost at sea in the gales", 5),
    query("the start of that night when Watson goes to drag a friend's husband out of an opium den", 6),
    query(
        "at the end of the beggar case, washing the scarred beggar's "
        "face in the cell to show who he really is",
        6,
    ),
    query("the goose dropped in the street in the early hours of Christmas morning", 7),
    query("the dying sister's final scream about a band with spots", 8),
    query("the engineer's first real job offer, a stranger paying fifty guineas for one night's work", 9),
)
