"""A position set for Black Beauty (../shared/corpus/black_beauty.json), written 2026-11-30.

Why: to measure how search treats a listener who says WHERE in the book a moment is
("right at the start", "towards the end", "the last chapter") as well as what happens.
Written fresh, before any rule about book-level position words existed, from reading the
chapters alone: the searcher and the evaluation were never run on these while writing,
and no ranking code was read. Never tune on these and then report them as held out.

Two groups. POSITION: a book-level position phrase plus a moment that really lies in the
first seven chapters or the last seven (43-49). CONTROL: position-like words that do NOT
mean a place in the book ("the first time he...", "the end of the old horse's story",
"his last words"), for moments in the middle chapters, so a rule that jumps to the start
or end of the book on any such word is caught. Phrased as a sleepy listener remembers
them, chapter numbers checked against the text, no text of the book quoted.
"""

from bedside_search.evaluation.queryset import NavigationQuery, query

BOOK = "black_beauty"

QUERIES: tuple[NavigationQuery, ...] = (
    # --- position: the moment really is near the start (1-7) or the end (43-49) ---
    query(
        "right at the start, the farmer catches a lad chucking stones at the young horses and sacks "
        "him on the spot",
        1,
    ),
    query(
        "in the first part of the book, his mum warning him to be gentle and not pick up rough "
        "habits from the farm colts",
        1,
    ),
    query(
        "near the beginning, the hunt where a young man jumping the brook breaks his neck and a "
        "horse has to be put down",
        2,
    ),
    query(
        "early on in the book, grazing beside the railway and being terrified of the steam engines "
        "roaring past",
        3,
    ),
    query(
        "near the beginning, his first day in the new stable with a chubby little grey pony next door "
        "and a snappy mare who's cross he's taken her spot",
        4,
    ),
    query("somewhere near the start, the lady of the house picking out what he'll be called", 5),
    query(
        "one of the opening chapters, the chestnut mare telling how a brutal trainer fought her "
        "until she threw him "
        "and a kind white-haired old man calmed her down",
        7,
    ),
    query(
        "near the end of the book, the cabbie drives a poor mum and her sick little lad to the "
        "hospital for nothing",
        43,
    ),
    query(
        "towards the end, a runaway beer cart smashes into them and the old white horse "
        "gets speared in the side",
        44,
    ),
    query(
        "late in the book, stuck outside a card party for hours in icy sleet on New Year's Eve "
        "and the cabbie comes down with a bad chest",
        45,
    ),
    query(
        "towards the end, a kind woman on a steep hill talks the carter out of whipping him "
        "and gets him to loosen the strap holding his head up",
        46,
    ),
    query(
        "close to the end, he collapses in the road hauling a cab piled with a family's trunks from "
        "the station",
        47,
    ),
    query(
        "in the final chapters, an old farmer and his grandson buy him cheap at a sale of clapped-out horses",
        48,
    ),
    query(
        "the very end, when the new groom knows him by his markings and it's the boy from his old "
        "home all grown up",
        49,
    ),
    query("the last chapter, where the ladies promise he'll never be sold again", 49),
    # --- control: position-like words that are NOT about where in the book (middle chapters) ---
    query("the beginning of the fire at the inn, waking up in the night with the stable full of smoke", 16),
    query("at the start of the mad gallop for the doctor, the stable bell clanging in the dark", 18),
    query("the last time he pulls the carriage for the sick mistress, taking her to catch her train", 21),
    query("the first time he's made to wear the tight head strap for the proud lady at the big house", 22),
    query("the end of the drunk groom, found lying dead on the stony road in the middle of the night", 26),
    query("the end of the old army horse's story, when his officer gets shot in the final charge", 34),
    query("the shabby cabbie whose last words were about never getting a day off", 39),
    query(
        "how it ends for his old stable mate, worn out in a rotten cab, and then a cart goes by with "
        "a dead chestnut in it",
        40,
    ),
)
