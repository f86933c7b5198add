"""Held-out navigation queries for Black Beauty (../shared/corpus/black_beauty.json).

Written after the fusion rule had been tuned on ``queries_black_beauty`` and before any
new method was measured on them. Every moment here is one the tuning set does not ask for
(a few sit in the same chapters as tuning queries, as a listener's requests would).
Phrased as a sleepy listener remembers, in their own words; chapter numbers found by
reading the chapters; no text of the book is quoted.

Since then these were consulted once to choose between methods that tied on the tuning
sets (the chapter spread was kept, a chapter-BM25 two-stage that did better here was not
served), so they are a validation set now; ``queries_black_beauty_test`` is the set no
choice has seen.
"""

from bedside_search.evaluation.queryset import NavigationQuery, query

BOOK = "black_beauty"

QUERIES: tuple[NavigationQuery, ...] = (
    query(
        "where his mum has a serious word with him about minding his manners since his family won prizes", 1
    ),
    query("when he's led down to the forge and gets metal fitted on his feet for the first time", 3),
    query("where he says what he looked like as a youngster, all dark with one pale mark on his face", 3),
    query("the pony warning him the grumpy mare next door has a nasty habit of nipping people", 4),
    query("when he realises the mare is a great workmate once they're pulling the carriage together", 5),
    query(
        "where the master's army friend shows off his new grey horses and they argue about holding heads up",
        11,
    ),
    query(
        "what happens to the little pony when the family splits up, he's handed over to the local vicar", 21
    ),
    query(
        "when the owner gets fed up after being let down by two grooms in a row and stops keeping a horse", 31
    ),
    query("the morning the cabbie's wife and little girl come out to make friends and bring him snacks", 33),
    query("the old soldier horse describing being hoisted onto a boat and thrown about at sea", 34),
    query("the lovely afternoon he's let loose to roll about and munch grass on a day out of the city", 37),
    query(
        "where the cabbie's little girl brings her dad something warm to eat while they wait for fares", 38
    ),
    query("where a lady who once employed the cabbie's wife slips him some money for the kids", 43),
    query("where the cabbie owns up to an older driver that he used to have a drinking problem", 44),
    query("when a new young brown horse joins them and thinks cab work is beneath him", 44),
    query("when the dad gets a terrible chest illness in the middle of winter", 45),
    query("the letter arriving from an old employer that changes everything for the family", 45),
    query("when he's sold to a harsh cab boss and finds out how miserable the job can really be", 47),
    query(
        "the boy who's put in charge of him and visits him in the field while he gets his strength back", 48
    ),
    query("the ladies who come out of the house to look him over before agreeing to take him", 49),
)
