"""Navigation queries for Black Beauty (../shared/corpus/black_beauty.json).

Phrased the way a half-asleep listener asks for a place: from memory of the moment, in
their own words, not the book's. Each names the chapter number(s) (`n`) holding it; two
only where the moment really runs across a chapter break. Written after reading the
chapters; no text of the book is quoted here.
"""

from bedside_search.evaluation.queryset import NavigationQuery, query

BOOK = "black_beauty"

QUERIES: tuple[NavigationQuery, ...] = (
    # Early life on the farm
    query("take me back to the very start, when he's a baby foal next to his mum", 1),
    query("the bit where the farmer sacks the lad who was pelting the young horses with rocks", 1),
    query("go back to when the squire's son gets killed out hunting", 2),
    query("where the hounds chase down the poor rabbit", 2),
    query("when he first has the metal thing put in his mouth and learns to wear a saddle", 3),
    query("the part where the steam train scares him in the meadow", 3),
    # Birtwick
    query("when he arrives at the new place and meets the pony in the next stall", 4),
    query("where the lady of the house picks his name", 5),
    query("when he finds out the horse that died at the hunt was his own brother", 5),
    query("the bit where he says he misses running free", 6),
    query("take me back to Ginger telling him how roughly she was trained as a youngster", 7),
    query("where the chestnut mare throws the cruel trainer off her back", 7),
    query("where Ginger explains why she hated the strap holding her head up in London", 8),
    query("the little pony tipping the boys off because they hit him too hard", 9),
    query("the old hunter explaining how they chopped his tail off", 10),
    query("the sad story about the little dog's pups having their ears clipped", 10),
    query("where they all argue about those eye flaps on the bridle", 10),
    query("where the master tells off the man who was yanking his pony's head around", 11),
    query("the night of the gale when a huge tree crashes down in front of them", 12),
    query("when he won't step onto the bridge because it's been washed away", 12),
    query("where the spoilt farm boy gets flung into the thorns by his pony", 13),
    query("the story about the schoolboy pulling wings off insects", 13),
    query("where the master checks whether James is any good because of a job offer", 14),
    query("the chatty little stable man at the inn who used to be a jockey", 15),
    query("go to the part with the fire", 16),
    query("where James leads him out of the burning stable with a cloth over his eyes", 16),
    query(
        "where the coachman opens up about his disabled sister and how the lady of the house helped them", 17
    ),
    query("when they pick the tiny lad from the lodge to take James's job", 17),
    query("the midnight gallop to fetch the doctor because the mistress is dying", 18),
    query("where the boy gives him cold water and no blanket and he gets really sick", 18),
    query("where John says not knowing better is almost as bad as being wicked", 19),
    query("when young Joe rides off to report the bloke thrashing the horses whose load got stuck", 20),
    # Earlshall
    query("when the family has to go abroad because the lady is ill and they say goodbye at the station", 21),
    query("when they arrive at the earl's grand house and meet the new coachman", 22),
    query("the proud countess ordering their heads pulled higher", 22, 23),
    query("where Ginger finally loses it in the harness and lashes out", 23),
    query("the runaway ride when the young lady is flung off out on the open moor", 24),
    query("when the drunk groom rides him too hard on the sharp new stones and they crash", 25),
    query("where the men come looking at night and find the groom dead and lead him home hurt", 26),
    # Downhill
    query("where he gets sold off because his knees are scarred", 27),
    query("the careless driver who doesn't notice a pebble jammed in his hoof", 28),
    query("where his partner gets gashed by a cart on the wrong side of the road", 29),
    query("when the groom is secretly stealing his oats and gets arrested", 30),
    query("the vain groom who fusses over his hair and lets the stall get filthy", 31),
    query("where he's up for sale at the market and hopes the kind little man will buy him", 32),
    # London with Jerry
    query("when he starts pulling a taxi in London and they call him Jack", 33),
    query("the old army horse's story about the battle charge", 34),
    query("where they race through the city so a young man catches his train", 35),
    query("when Jerry refuses to work Sundays even for a good customer", 36),
    query("the trip out to the countryside so a woman can see her dying mum", 37),
    query("the gentleman who threatens a drunk driver for beating his pair outside a shop", 38),
    query("the worn out cab driver who works himself to death", 39),
    query("when he bumps into Ginger again and she's completely broken down", 40),
    query("the butcher scolding his son for galloping the delivery horse", 41),
    query("where the boy gets in a scrap because his sister was teased over the voting colours", 42),
    query("where Jerry gives a poor mother with a sick baby a free ride to the hospital", 43),
    query("when the old horse is wrecked by a drunk driving a beer wagon", 44),
    query("waiting out in the icy wet half the night while the men gamble indoors", 45),
    # Last years
    query("the kind lady who asks the driver to let his head loose going up the slope", 46),
    query("when he collapses in the street pulling the heavy cab with all the luggage", 47),
    query("the old farmer and his grandson buying him at the sale", 48),
    query("the happy ending where his old stable lad recognises him", 49),
    # Vague
    query("the bit where the stable goes up in flames", 16),
    query("that sad bit where a dead horse goes by on a cart", 40),
)
