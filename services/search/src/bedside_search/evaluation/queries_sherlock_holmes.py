"""Navigation queries for The Adventures of Sherlock Holmes
(../shared/corpus/adventures_of_sherlock_holmes.json).

Each story is one chapter, so most queries aim at a moment inside a story rather than at
the story as a whole; a few vague ones ask for the story by what it was "about". Phrased
from memory in a listener's words, not the book's. No text of the book is quoted here.
"""

from bedside_search.evaluation.queryset import NavigationQuery, query

BOOK = "adventures_of_sherlock_holmes"

QUERIES: tuple[NavigationQuery, ...] = (
    # 1: the king and the singer's picture
    query("where the royal visitor turns up in a mask wanting his old photo back", 1),
    query("the bit where Holmes dresses as a priest and pretends to get hurt in a street fight", 1),
    query("when Watson chucks the smoke thing through the window and everyone panics", 1),
    query("when Holmes in disguise gets roped into being a witness at her marriage", 1),
    query("where they find she's already fled and left a note and a picture of herself", 1),
    # 2: the club for red-haired men
    query("the pawnbroker who gets paid to copy out the encyclopedia by hand", 2),
    query("where the sign on the locked office says the society has been shut down", 2),
    query("where Holmes bangs his walking stick on the ground outside the shop", 2),
    query("waiting in the pitch dark under the bank for the robbers to dig through", 2),
    # 3: the vanished fiancé
    query("the short sighted girl whose husband to be disappeared from the carriage on the wedding day", 3),
    query("where Holmes works out the stepdad was pretending to be the boyfriend", 3),
    query("the clue in the typed love letters", 3),
    # 4: the murder by the lake
    query("the young man arrested for killing his dad down by the water", 4),
    query("the dying father saying something that sounds like a rodent", 4),
    query("the sick old landowner from Australia confessing it all", 4),
    # 5: the warning seeds
    query("the envelopes with the little fruit seeds that mean death is coming", 5),
    query("the uncle who came back from America and burned a box of papers", 5),
    query("when Holmes reads in the morning paper that his young client ended up in the river", 5),
    query("where Holmes sends the killers their own envelope and their ship is lost at sea", 5),
    # 6: the beggar
    query("where Watson goes to fetch a friend from a drug den and Holmes is there in disguise", 6),
    query("the wife who spots her husband waving from an upstairs room in a dodgy part of town", 6),
    query("the scarred beggar getting scrubbed clean in his cell", 6),
    # 7: the jewel and the bird
    query("where they find the precious gem inside the bird for Christmas dinner", 7),
    query("tracing where the bird came from by betting the market seller", 7),
    query("the hotel worker confessing and Holmes just letting him go", 7),
    query("working out all about the owner from his battered old hat", 7),
    # 8: the sisters and the stepfather
    query("the frightened young lady whose twin died in the night after hearing a whistle", 8),
    query("the huge angry doctor who bends the fireplace iron to threaten Holmes", 8),
    query("the fake bell rope and the little air hole between the rooms", 8),
    query("sitting in the dark waiting for something to come down the rope", 8),
    # 9: the engineer
    query("the young man who comes to Watson's surgery with his thumb hacked off", 9),
    query("when he's trapped in the giant machine and the roof starts coming down on him", 9),
    query("the house in the country going up in flames and the gang getting away", 9),
    # 10: the runaway bride
    query("the posh lord whose new wife vanishes from the wedding party", 10),
    query("the police dragging the park pond and finding her wedding clothes", 10),
    query("when it turns out the bride's first husband from the American mining days is still alive", 10),
    # 11: the crown
    query("the banker who takes a national treasure as security for a loan", 11),
    query("when the banker catches his own son at night holding the bent crown", 11),
    query("the footprints in the snow outside the house", 11),
    query("where the niece runs off with the scoundrel who really had the stones", 11),
    # 12: the governess
    query("the young woman offered loads of money if she chops off her hair", 12),
    query("being made to wear a particular dress and sit with her back to the window", 12),
    query("the half starved guard dog let loose in the grounds at night", 12),
    query("sneaking into the shut up part of the house", 12),
    # vague
    query("the story with the snake", 8),
    query("the christmas one", 7),
)
