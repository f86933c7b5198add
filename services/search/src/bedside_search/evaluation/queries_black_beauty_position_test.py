"""A fresh position TEST set for Black Beauty (../shared/corpus/black_beauty.json).

Written 2026-11-30, after the rule for book-level position words ("near the start", "one
of the last chapters") had been fixed, to report honestly how that rule does. Written
without reading the rule or any ranking code, and without running the searcher or the
evaluation: only the chapters of the book were read. Run it once, report the number, and
never tune on it; the tuning sets are ``queries_black_beauty_position`` and friends.

Two groups. POSITION: the listener says roughly where in the book the moment is, worded
differently from the tuning set (and sometimes at the middle or end of the sentence), for
a moment that really lies in chapters 1-9 or 41-49, mostly moments the tuning set does not
ask about. CONTROL: position-like words that do NOT mean a place in the book ("the start
of the ride home", "the last straw", "the first of the family to go", "the end of his
working day"), for moments in chapters 12-38, so a rule that jumps to the start or end of
the book on any such word is caught. Phrased as a sleepy listener remembers them, chapter
numbers checked against the text, no text of the book quoted.
"""

from bedside_search.evaluation.queryset import NavigationQuery, query

BOOK = "black_beauty"

QUERIES: tuple[NavigationQuery, ...] = (
    # --- position: the moment really is near the start (1-9) or the end (41-49) ---
    query(
        "way back at the beginning, the kind farmer who brings the little black foal a bit of bread "
        "and his mum a carrot",
        1,
    ),
    query(
        "in the early chapters, the church bell going on and on and a row of black carriages when "
        "they bury the young rider",
        2,
    ),
    query("before he's even sold the first time, the trip to the blacksmith to get metal shoes nailed on", 3),
    query(
        "the day he leaves the farm and puts his nose in the old farmer's hand to say goodbye, "
        "near the beginning of the audiobook",
        4,
    ),
    query(
        "finding out the horse that got shot after the hunt was really his own brother, in one of "
        "the first few chapters",
        5,
    ),
    query(
        "when the book has only just got going, the chestnut mare's time in London with a show-off "
        "owner who straps her head up high until she smashes the harness",
        8,
    ),
    query(
        "the little grey pony boasting that he slid the vicar's boys off his back because they kept "
        "whacking him with sticks, in the first handful of chapters",
        9,
    ),
    query(
        "right near the finish, a butcher giving his son a telling-off for racing the delivery horse "
        "until it's half dead",
        41,
    ),
    query(
        "in the closing part of the book, the cabbie bumps into his wife's old boss outside the "
        "hospital and she gives him some money for the kids",
        43,
    ),
    query(
        "the cabby telling his boss how hard it was to give up the booze, nearly the end of the audiobook", 44
    ),
    query(
        "in the final stretch, a letter comes offering the family a cottage in the country so their "
        "dad can stop driving the cab",
        45,
    ),
    query(
        "one of the last few chapters, a gloomy stable with just one tiny window that starts to "
        "ruin his eyesight",
        46,
    ),
    query(
        "at the tail end, the farmer's grandson being put in charge of him and popping by every day "
        "with treats and a pet name",
        48,
    ),
    query(
        "the pale nervous sister who's scared to be driven by him because his knees show he's gone "
        "down before, in the chapter that closes the book",
        49,
    ),
    # --- control: position-like words that are NOT about where in the book (chapters 12-38) ---
    query(
        "at the start of the ride home from town in the gale, a huge oak gets ripped up and lands "
        "across the road right in front of them",
        12,
    ),
    query(
        "the last straw for the little pony at the gate, when he bucks the farmer's bullying lad "
        "into a prickly hedge",
        13,
    ),
    query("the first of the family to go are the two little girls, hugging the grey pony goodbye", 21),
    query(
        "the end of the fight over the tight head straps, when the chestnut mare rears up and kicks "
        "her way over the carriage pole",
        23,
    ),
    query(
        "how the case of the missing oats ends up, with a policeman grabbing the groom's little boy "
        "and his basket",
        30,
    ),
    query(
        "his very first night in the big city, the cabby's wife and kids coming out with a lantern "
        "to make a fuss of him",
        32,
    ),
    query(
        "right at the start of the dash to the station for the young man who slipped on a bit of "
        "orange peel and hurt himself",
        35,
    ),
    query(
        "the little girl bringing her dad his first course in a basin at the cab stand, and a "
        "gentleman says he'll wait till he's eaten",
        38,
    ),
)
