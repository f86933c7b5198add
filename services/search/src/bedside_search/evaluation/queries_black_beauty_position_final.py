"""A final fresh test set for how search reads placings, for Black Beauty.

Corpus file ../shared/corpus/black_beauty.json. Written on 2026-11-30 as a last,
untouched test of how search handles a listener saying roughly where in the whole book a
moment lies ("near the start", "one of the last chapters"). It was written from the book
alone, without reading the served rule, the search code or the earlier position sets, and
is meant to be run exactly once so that its number can be reported honestly. Never tune on it.

Two groups. The first asks for moments in the opening ~20% (chapters 1-9) or the closing
~20% (chapters 41-49) of the book and says so, in varied everyday words. The second is a
control: moments from the middle (chapters 12-38) whose wording contains words such as
first, start, early, end, last or final that speak of an event, not of a place in the
book. Chapter numbers were checked against the text; nothing of the book is quoted.
"""

from bedside_search.evaluation.queryset import NavigationQuery, query

BOOK = "black_beauty"

QUERIES: tuple[NavigationQuery, ...] = (
    # Placed in the book: the moment is near the beginning or near the end, and the listener says so.
    query(
        "right at the very beginning, when the farmer catches a lad "
        "pelting the young horses with stones and fires him",
        1,
    ),
    query(
        "near the start of the book there's a hunting accident where a young man dies and a horse gets shot",
        2,
    ),
    query(
        "early on, getting used to a metal thing in his mouth, being "
        "shod, and a fortnight in a field by the trains",
        3,
    ),
    query(
        "his arrival at the big house, chatting to the little grey pony next "
        "door and the grumpy mare, back near the beginning",
        4,
    ),
    query(
        "the bit where the lady of the house comes up with his name, that's in one of the opening chapters", 5
    ),
    query(
        "in the early part of the book, the mare describing the bully who "
        "trained her and the kind old man with the oats",
        7,
    ),
    query(
        "take me back toward the start, where she kicked the harness to "
        "bits in London because her head was strapped up",
        8,
    ),
    query(
        "the pony tipping the vicar's lads off his back for whacking "
        "him with sticks, it's quite early in the story",
        9,
    ),
    query(
        "towards the end of the book, on voting day, the cabbie drives a young "
        "mum and her poorly little boy to hospital for free",
        43,
    ),
    query(
        "late in the book his old white workmate gets wrecked by a drunk man's cart and has to be put down",
        44,
    ),
    query(
        "one of the last chapters: waiting outside a card party in freezing "
        "sleet on new year's eve until the cabbie falls ill",
        45,
    ),
    query("nearly at the end, a lady on a steep road persuades the carter to let his head go loose", 46),
    query(
        "he collapses in the city street under a family's heavy "
        "trunks, that's in the final stretch of the book",
        47,
    ),
    query("in the closing chapters, a kindly old farmer and his grandson buy him cheap at the sale", 48),
    query(
        "how the whole thing wraps up, the new groom recognising him "
        "from his white marks as the boy from years ago",
        49,
    ),
    # Control: middle of the book; first/start/end/last here are about events, not the book.
    query(
        "his first time with his head tied up high at the earl's place, "
        "and the proud lady wanting it even higher",
        22,
    ),
    query(
        "when the family leave for abroad and the coachman says at the "
        "station that's the last they'll ever see of her",
        21,
    ),
    query(
        "the stormy day when they finally start home late and a huge oak comes crashing down across the road",
        12,
    ),
    query(
        "in the burning stable at the inn, the young groom comes for "
        "him first and leads him out through the smoke",
        16,
    ),
    query(
        "the boy's first go at looking after him alone, cold water and "
        "no rug, after the race to fetch the doctor",
        18,
    ),
    query(
        "the groom's drinking bout that ends with the horse falling on the stony road in the moonlight", 25
    ),
    query(
        "the end of the lovely Sunday out in the fields, bringing home "
        "a bunch of wildflowers for the little girl",
        37,
    ),
    query(
        "when winter starts early with sleet day after day and the cabmen sit out till the small hours", 38
    ),
)
