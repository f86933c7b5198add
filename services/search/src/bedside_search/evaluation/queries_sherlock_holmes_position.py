"""A position set for the Holmes collection (../shared/corpus/adventures_of_sherlock_holmes.json).

Written 2026-11-30 to measure how search treats a listener who says WHERE in the book a
moment is; the book is a collection of twelve stories, one per chapter, so "the first
story", "the last case in the book" are the natural ways to say it. Written fresh, before
any rule about book-level position words existed, from reading the stories alone: the
searcher and the evaluation were never run on these while writing, and no ranking code
was read. Never tune on these and then report them as held out.

Two groups. POSITION: a book-level position phrase plus a moment that really lies in the
first two stories or the last two (11, 12). CONTROL: position words about a place inside
ONE story ("the end of the Speckled Band story") or not about place at all ("her first
husband", "when he finally lets go"), for stories in the middle of the book, so a rule
that jumps to the start or end of the book on any such word is caught. Phrased as a
sleepy listener remembers them, story numbers checked against the text, nothing quoted.
"""

from bedside_search.evaluation.queryset import NavigationQuery, query

BOOK = "adventures_of_sherlock_holmes"

QUERIES: tuple[NavigationQuery, ...] = (
    # --- position: the moment really is in the first two stories or the last two ---
    query(
        "the very first story, a king in a mask turns up wanting an old photo back from a singer he "
        "used to see",
        1,
    ),
    query("in the first case, Holmes in disguise gets roped in as the witness at a rushed wedding", 1),
    query(
        "right at the start of the book, Watson chucks a smoke bomb through the window and everyone "
        "yells fire",
        1,
    ),
    query(
        "near the beginning, the woman who outsmarts Holmes, slips away and leaves him a note and a "
        "picture of herself",
        1,
    ),
    query("the second story, a pawnbroker with flaming red hair paid to sit copying out the encyclopedia", 2),
    query(
        "early in the collection, Holmes bangs his stick on the pavement outside the shop and then "
        "goes off to a violin concert",
        2,
    ),
    query(
        "one of the first stories, sitting in pitch darkness in a bank's cellar full of French gold "
        "waiting for the crooks to come up through the floor",
        2,
    ),
    query(
        "near the end of the book, a banker takes home a priceless jewelled crown as security "
        "and finds a corner broken off in the night",
        11,
    ),
    query(
        "the second last story, where the banker blames his son but it was really his niece and her "
        "smooth-talking lover",
        11,
    ),
    query(
        "towards the end of the book, Holmes dresses as a scruffy layabout and buys a crook's old shoes "
        "to match the footprints in the snow",
        11,
    ),
    query(
        "the last story in the book, a young governess offered huge wages as long as she chops off her hair",
        12,
    ),
    query(
        "the final case, she's made to sit in a blue frock with her back to the window and uses a "
        "bit of broken mirror to peek",
        12,
    ),
    query(
        "at the very end of the collection, the starving guard dog gets loose and goes for its own "
        "master's neck",
        12,
    ),
    query(
        "the closing story, the shut-up wing of the house and the daughter they'd hidden away up there", 12
    ),
    # --- control: position words inside ONE story, or not about place, for middle stories ---
    query(
        "at the end of the typist's case, Holmes won't tell her the truth because she'd never believe him", 3
    ),
    query(
        "the old man's last confession about killing his blackmailer down by the pool, before Holmes "
        "lets him go",
        4,
    ),
    query("how the orange seeds case finishes, with the killers' ship wrecked somewhere out in the ocean", 5),
    query(
        "the final bit of the beggar mystery, when Holmes scrubs the sleeping prisoner's face in the cell", 6
    ),
    query(
        "at the start of the Christmas goose one, Holmes poking at a battered old hat with a "
        "magnifying glass",
        7,
    ),
    query(
        "the end of the Speckled Band story, when the snake goes back through the vent and bites the "
        "stepfather",
        8,
    ),
    query(
        "when the engineer finally lets go of the window ledge and the colonel's chopper takes his thumb off",
        9,
    ),
    query(
        "the end of the wedding story, where the missing bride turns up with her first husband she'd "
        "thought was killed",
        10,
    ),
)
