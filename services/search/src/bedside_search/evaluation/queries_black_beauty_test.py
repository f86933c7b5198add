"""A second held-out set for Black Beauty (../shared/corpus/black_beauty.json): the test set.

Written after the first held-out set (``queries_black_beauty_heldout``) had been consulted
to choose between methods that tied on the tuning sets, so that set became a validation
set; these were written before any method was measured on them, and the served rule was
fixed before they were first run. New moments only (some in chapters the other sets also
ask about), phrased as a sleepy listener remembers them, chapter numbers found by reading
the chapters, no text of the book quoted. Never tune on these.
"""

from bedside_search.evaluation.queryset import NavigationQuery, query

BOOK = "black_beauty"

QUERIES: tuple[NavigationQuery, ...] = (
    query(
        "when he's so full of beans after days stuck indoors that he can't stop bouncing about on his ride", 6
    ),
    query("where the mare says she was taken from her mother as a baby and nobody ever cared about her", 7),
    query("where the mare says a trader bought her to be matched with another horse of the same colour", 8),
    query("when the doctor's own horse is exhausted so he borrows ours to ride back", 18),
    query("the story about the lad who dressed up as a ghost and scared his little brother senseless", 19),
    query("when the stable lad gets called into the master's study to give his side of what he saw", 20),
    query("where the young lady decides to try the nervy bay mare the gentleman guest always rides", 24),
    query("the groom who's brilliant at the job except that he goes on drinking binges", 25),
    query("the long painful treatment of his cut legs, burning and blistering so the hair grows back", 26),
    query("the two of them spending quiet days side by side in the meadow before he's led away from her", 27),
    query("the different sorts of bad drivers, some who yank the reins hard and some who let them flop", 28),
    query(
        "the rant about city folk who hire a horse for the day and think it was made to haul them up hills",
        29,
    ),
    query("the groom's little son carrying a covered basket out of the stable every morning", 30),
    query("the big market with scruffy little Welsh ponies and cart horses with ribbons in their tails", 32),
    query(
        "the first day at the big cab rank by the old church, with the drivers chatting and reading papers",
        33,
    ),
    query(
        "where the cabbie turns down a tip for rushing two gents to their train and another driver grabs it",
        35,
    ),
    query("the cabbie complaining he drives miles for a few coins and isn't allowed to charge more", 39),
    query("when he thinks he spots his old pony friend being mistreated by a boy", 41),
    query("when the cabbie refuses to have his cab plastered with election posters", 42),
    query("the vet saying he only needs half a year off and the owner saying he'd rather be rid of him", 47),
)
