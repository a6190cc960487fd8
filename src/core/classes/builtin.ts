/**
 * The built-in class lists (docs/science.md §6): each dataset's class names in the dataset's own label order, and one
 * pinned WordNet 3.1 noun synset per class ("n" + 8-digit offset in WordNet 3.1's data.noun), chosen by reading
 * the glosses (run `node scripts/check-pins.mjs` to review them), so that WordNet similarity never falls into a
 * wrong first sense ("tiger" the person, "seal" the wax, "ray" the beam of light).
 *
 * Sources of the names: CIFAR-10/100 and (Fashion-)MNIST as their loaders list them; CUB-200-2011's classes.txt
 * (the part after "NNN.", typos such as "Artic_Tern" kept); ImageNet-R's 200 classes in the order torchvision's
 * ImageFolder gives them (sorted ImageNet wnids, see IMAGENET_R_WNIDS) with the short names commonly used for
 * them (e.g. in CODA-Prompt-style continual-learning code); emoji: our own list of concrete single-emoji concepts,
 * with code points, for a later issue that rasterises them.
 *
 * Pins that are not the species/object itself say so in a comment: WordNet lacks many bird species, so those CUB
 * classes are pinned to their genus or family (several classes can then share a synset, and their Wu–Palmer
 * similarity is 1: WordNet cannot tell them apart). ImageNet uses WordNet 3.0 ids; the pins here are the matching
 * WordNet 3.1 synsets (checked lemma by lemma), not the 3.0 offsets.
 */

export type BuiltinClassListId = 'cifar10' | 'cifar100' | 'mnist' | 'fashion-mnist' | 'cub200' | 'imagenet-r' | 'emoji';

export interface ClassList {
  id: BuiltinClassListId;
  /** display name */
  name: string;
  /** class names, in the dataset's label order (index = label) */
  classes: string[];
  /** one pinned WordNet 3.1 noun synset id per class */
  synsets: string[];
  /** where the names come from */
  source: string;
}

export interface EmojiClass {
  name: string;
  /** the fully-qualified emoji (with U+FE0F where the code point defaults to text presentation) */
  emoji: string;
  /** the base code point, hex, upper case, as emoji fonts name their files (e.g. "1F415") */
  codepoint: string;
  /** Unicode emoji group and subgroup (emoji-test.txt) */
  group: string;
  subgroup: string;
}

export interface EmojiClassList extends ClassList {
  id: 'emoji';
  emoji: EmojiClass[];
}

type Row = readonly [name: string, synset: string];

function list(id: BuiltinClassListId, name: string, source: string, rows: readonly Row[]): ClassList {
  return { id, name, source, classes: rows.map((r) => r[0]), synsets: rows.map((r) => r[1]) };
}

const CIFAR10_ROWS: readonly Row[] = [
  ['airplane', 'n02694015'],
  ['automobile', 'n02961779'],
  ['bird', 'n01505702'],
  ['cat', 'n02124272'],
  ['deer', 'n02432691'],
  ['dog', 'n02086723'],
  ['frog', 'n01642406'],
  ['horse', 'n02377103'],
  ['ship', 'n04201332'],
  ['truck', 'n04497386'],
];

const CIFAR100_ROWS: readonly Row[] = [
  ['apple', 'n07755101'],
  ['aquarium_fish', 'n02514684'], // WordNet has no aquarium-fish synset: fish
  ['baby', 'n09846929'],
  ['bear', 'n02134305'],
  ['beaver', 'n02365657'],
  ['bed', 'n02821967'],
  ['bee', 'n02209508'],
  ['beetle', 'n02167116'],
  ['bicycle', 'n02837983'],
  ['bottle', 'n02879899'],
  ['bowl', 'n02884435'],
  ['boy', 'n10305010'],
  ['bridge', 'n02901994'],
  ['bus', 'n02927500'],
  ['butterfly', 'n02276911'],
  ['camel', 'n02439767'],
  ['can', 'n02950393'],
  ['castle', 'n02983900'], // the fortified building, not sense 1 (a stately mansion)
  ['caterpillar', 'n02311989'],
  ['cattle', 'n02405077'],
  ['chair', 'n03005231'],
  ['chimpanzee', 'n02484454'],
  ['clock', 'n03050242'],
  ['cloud', 'n09270316'], // the visible mass of water droplets (noun.object), not sense 1 (any particle cloud)
  ['cockroach', 'n02235990'],
  ['couch', 'n04263630'],
  ['crab', 'n01979598'],
  ['crocodile', 'n01699819'],
  ['cup', 'n03152175'],
  ['dinosaur', 'n01702472'],
  ['dolphin', 'n02071627'], // the toothed whale, not sense 1 (dolphinfish)
  ['elephant', 'n02506148'],
  ['flatfish', 'n02659998'], // the fish, not sense 1 (its flesh as food)
  ['forest', 'n09306921'], // land covered with trees (noun.object), like plain/sea/mountain
  ['fox', 'n02120985'],
  ['girl', 'n10104064'], // female child, parallel to boy = male child
  ['hamster', 'n02345537'],
  ['house', 'n03549540'],
  ['kangaroo', 'n01879775'],
  ['keyboard', 'n03619216'],
  ['lamp', 'n03641940'], // the furniture lamp (table/desk lamp)
  ['lawn_mower', 'n03655235'],
  ['leopard', 'n02131037'], // the cat, not sense 1 (its pelt)
  ['lion', 'n02131817'],
  ['lizard', 'n01677105'],
  ['lobster', 'n01985291'], // the animal, not sense 1 (its flesh)
  ['man', 'n10306910'],
  ['maple_tree', 'n12772965'], // maple the tree, not sense 1 (maple wood)
  ['motorcycle', 'n03796045'],
  ['mountain', 'n09382700'],
  ['mouse', 'n02332897'], // the rodent, not the computer mouse
  ['mushroom', 'n13018679'], // the fleshy fungus with cap and stem
  ['oak_tree', 'n12288763'],
  ['orange', 'n07763583'], // the fruit
  ['orchid', 'n12061915'],
  ['otter', 'n02447450'], // the animal, not sense 1 (its fur)
  ['palm_tree', 'n12602979'],
  ['pear', 'n07783823'], // the fruit
  ['pickup_truck', 'n03936868'],
  ['pine_tree', 'n11628701'],
  ['plain', 'n09416498'],
  ['plate', 'n03965779'], // the dish, not sense 1 (home plate)
  ['poppy', 'n11921038'],
  ['porcupine', 'n02349279'],
  ['possum', 'n01877569'], // the American opossum
  ['rabbit', 'n02326697'],
  ['raccoon', 'n02510652'], // the animal, not sense 1 (its fur)
  ['ray', 'n01498342'], // the fish, not sense 1 (a beam of light)
  ['road', 'n04103160'],
  ['rocket', 'n04106523'],
  ['rose', 'n12640957'],
  ['sea', 'n09449666'],
  ['seal', 'n02078848'], // the marine mammal, not sense 1 (sealing wax)
  ['shark', 'n01484971'],
  ['shrew', 'n01894274'], // the animal, not sense 1 (a scolding woman)
  ['skunk', 'n02448346'], // the animal, not sense 1 (a contemptible person)
  ['skyscraper', 'n04240233'],
  ['snail', 'n01947031'],
  ['snake', 'n01729333'],
  ['spider', 'n01774863'],
  ['squirrel', 'n02357879'],
  ['streetcar', 'n04342573'],
  ['sunflower', 'n11998702'],
  ['sweet_pepper', 'n07736360'], // the vegetable
  ['table', 'n04386330'], // the furniture, not sense 1 (a table of data)
  ['tank', 'n04396120'], // the armoured vehicle
  ['telephone', 'n04408223'],
  ['television', 'n04413042'], // the receiver, not the broadcasting system
  ['tiger', 'n02132256'], // the big cat, not sense 1 (a fierce person)
  ['tractor', 'n04472736'],
  ['train', 'n04475240'],
  ['trout', 'n02539716'], // the fish, not sense 1 (its flesh)
  ['tulip', 'n12474664'],
  ['turtle', 'n01665425'], // the reptile, not sense 1 (a turtleneck)
  ['wardrobe', 'n04557470'],
  ['whale', 'n02065397'], // the animal, not sense 1 (a very large person)
  ['willow_tree', 'n12745702'],
  ['wolf', 'n02116752'],
  ['woman', 'n10807146'],
  ['worm', 'n01924944'],
];

const MNIST_ROWS: readonly Row[] = [
  ['zero', 'n13764498'], // the digit as a number (noun.quantity)
  ['one', 'n13764713'],
  ['two', 'n13765409'],
  ['three', 'n13766184'],
  ['four', 'n13766444'],
  ['five', 'n13766661'],
  ['six', 'n13766862'],
  ['seven', 'n13767056'],
  ['eight', 'n13767226'],
  ['nine', 'n13767410'],
];

const FASHION_MNIST_ROWS: readonly Row[] = [
  ['T-shirt/top', 'n03600807'],
  ['Trouser', 'n04496264'], // trousers (the lemma "trouser" is a trouser part)
  ['Pullover', 'n04027422'],
  ['Dress', 'n03241438'],
  ['Coat', 'n03061006'],
  ['Sandal', 'n04140872'],
  ['Shirt', 'n04204434'],
  ['Sneaker', 'n03477658'],
  ['Bag', 'n02777157'], // handbag, as in the images
  ['Ankle boot', 'n02876113'], // WordNet has no ankle-boot synset: boot
];

const CUB200_ROWS: readonly Row[] = [
  ['Black_footed_Albatross', 'n02061401'],
  ['Laysan_Albatross', 'n02060875'], // no species synset: albatross
  ['Sooty_Albatross', 'n02060875'], // no species synset: albatross
  ['Groove_billed_Ani', 'n01826985'], // no species synset: ani (genus Crotophaga)
  ['Crested_Auklet', 'n02048250'], // no species synset: auklet
  ['Least_Auklet', 'n02048250'], // no species synset: auklet
  ['Parakeet_Auklet', 'n02048250'], // no species synset: auklet
  ['Rhinoceros_Auklet', 'n02048250'], // no species synset: auklet
  ['Brewer_Blackbird', 'n01576686'], // no species synset: New World blackbird (Icteridae)
  ['Red_winged_Blackbird', 'n01578042'],
  ['Rusty_Blackbird', 'n01577442'],
  ['Yellow_headed_Blackbird', 'n01576686'], // no species synset: New World blackbird (Icteridae)
  ['Bobolink', 'n01576539'],
  ['Indigo_Bunting', 'n01540185'],
  ['Lazuli_Bunting', 'n01539775'], // no species synset: bunting
  ['Painted_Bunting', 'n01539775'], // no species synset: bunting
  ['Cardinal', 'n01544027'],
  ['Spotted_Catbird', 'n01603298'], // no species synset: bowerbird/catbird (Australian catbirds, genus Ailuroedus)
  ['Gray_Catbird', 'n01590167'],
  ['Yellow_breasted_Chat', 'n01572612'],
  ['Eastern_Towhee', 'n01544809'], // species: chewink, Pipilo erythrophthalmus
  ['Chuck_will_Widow', 'n01838559'],
  ['Brandt_Cormorant', 'n02056690'], // no species synset: cormorant
  ['Red_faced_Cormorant', 'n02056690'], // no species synset: cormorant
  ['Pelagic_Cormorant', 'n02056690'], // no species synset: cormorant
  ['Bronzed_Cowbird', 'n01577758'], // no species synset: cowbird
  ['Shiny_Cowbird', 'n01577758'], // no species synset: cowbird
  ['Brown_Creeper', 'n01592359'],
  ['American_Crow', 'n01581790'],
  ['Fish_Crow', 'n01581669'], // no species synset: crow
  ['Black_billed_Cuckoo', 'n01826381'],
  ['Mangrove_Cuckoo', 'n01825654'], // no species synset: cuckoo
  ['Yellow_billed_Cuckoo', 'n01825654'], // no species synset: cuckoo
  ['Gray_crowned_Rosy_Finch', 'n01532313'], // no species synset: finch
  ['Purple_Finch', 'n01535641'],
  ['Northern_Flicker', 'n01842391'], // species: yellow-shafted flicker, Colaptes auratus
  ['Acadian_Flycatcher', 'n01550473'], // no species synset: New World (tyrant) flycatcher
  ['Great_Crested_Flycatcher', 'n01550473'], // no species synset: New World (tyrant) flycatcher
  ['Least_Flycatcher', 'n01550473'], // no species synset: New World (tyrant) flycatcher
  ['Olive_sided_Flycatcher', 'n01550473'], // no species synset: New World (tyrant) flycatcher
  ['Scissor_tailed_Flycatcher', 'n01557946'], // species: scissortail
  ['Vermilion_Flycatcher', 'n01552813'], // species: vermillion flycatcher, Pyrocephalus rubinus
  ['Yellow_bellied_Flycatcher', 'n01550473'], // no species synset: New World (tyrant) flycatcher
  ['Frigatebird', 'n02055429'], // no species synset: frigate bird
  ['Northern_Fulmar', 'n02062786'], // species: fulmar, Fulmarus glacialis
  ['Gadwall', 'n01850048'], // no species synset: dabbling duck
  ['American_Goldfinch', 'n01534966'], // species: New World goldfinch, Spinus tristis
  ['European_Goldfinch', 'n01533819'], // species: goldfinch, Carduelis carduelis
  ['Boat_tailed_Grackle', 'n01577031'], // no species synset: grackle (American)
  ['Eared_Grebe', 'n02053240'], // species: black-necked (eared) grebe
  ['Horned_Grebe', 'n02052658'], // no species synset: grebe
  ['Pied_billed_Grebe', 'n02053713'],
  ['Western_Grebe', 'n02052658'], // no species synset: grebe
  ['Blue_Grosbeak', 'n01542874'], // no species synset: grosbeak
  ['Evening_Grosbeak', 'n01543207'],
  ['Pine_Grosbeak', 'n01543743'],
  ['Rose_breasted_Grosbeak', 'n01542874'], // no species synset: grosbeak
  ['Pigeon_Guillemot', 'n02049699'],
  ['California_Gull', 'n02043900'], // no species synset: gull
  ['Glaucous_winged_Gull', 'n02043900'], // no species synset: gull
  ['Heermann_Gull', 'n02043900'], // no species synset: gull
  ['Herring_Gull', 'n02044700'],
  ['Ivory_Gull', 'n02045126'],
  ['Ring_billed_Gull', 'n02043900'], // no species synset: gull
  ['Slaty_backed_Gull', 'n02043900'], // no species synset: gull
  ['Western_Gull', 'n02043900'], // no species synset: gull
  ['Anna_Hummingbird', 'n01836446'], // no species synset: hummingbird
  ['Ruby_throated_Hummingbird', 'n01836818'], // species: Archilochus colubris
  ['Rufous_Hummingbird', 'n01836446'], // no species synset: hummingbird
  ['Green_Violetear', 'n01836446'], // no species synset: hummingbird
  ['Long_tailed_Jaeger', 'n02046832'], // no species synset: jaeger
  ['Pomarine_Jaeger', 'n02046832'], // no species synset: jaeger
  ['Blue_Jay', 'n01583511'],
  ['Florida_Jay', 'n01583413'], // no species synset: New World jay
  ['Green_Jay', 'n01583413'], // no species synset: New World jay
  ['Dark_eyed_Junco', 'n01537223'],
  ['Tropical_Kingbird', 'n01550942'], // no species synset: kingbird
  ['Gray_Kingbird', 'n01551694'],
  ['Belted_Kingfisher', 'n01830737'],
  ['Green_Kingfisher', 'n01830044'], // no species synset: kingfisher
  ['Pied_Kingfisher', 'n01830044'], // no species synset: kingfisher
  ['Ringed_Kingfisher', 'n01830044'], // no species synset: kingfisher
  ['White_breasted_Kingfisher', 'n01830044'], // no species synset: kingfisher
  ['Red_legged_Kittiwake', 'n02045413'], // no species synset: kittiwake
  ['Horned_Lark', 'n01530258'], // no species synset: lark (Alaudidae)
  ['Pacific_Loon', 'n02051742'], // no species synset: loon
  ['Mallard', 'n01850447'],
  ['Western_Meadowlark', 'n01576001'],
  ['Hooded_Merganser', 'n01858117'],
  ['Red_breasted_Merganser', 'n01857673'],
  ['Mockingbird', 'n01589582'],
  ['Nighthawk', 'n01839025'],
  ['Clark_Nutcracker', 'n01584625'],
  ['White_breasted_Nuthatch', 'n01593942'],
  ['Baltimore_Oriole', 'n01575130'],
  ['Hooded_Oriole', 'n01574545'], // no species synset: New World oriole
  ['Orchard_Oriole', 'n01575423'],
  ['Scott_Oriole', 'n01574545'], // no species synset: New World oriole
  ['Ovenbird', 'n01572908'], // species: ovenbird, Seiurus aurocapillus
  ['Brown_Pelican', 'n02054499'], // no species synset: pelican
  ['White_Pelican', 'n02054858'], // species: American white pelican
  ['Western_Wood_Pewee', 'n01552282'],
  ['Sayornis', 'n01552527'], // genus: phoebe, Sayornis phoebe
  ['American_Pipit', 'n01531295'], // no species synset: pipit
  ['Whip_poor_Will', 'n01838728'], // species: whippoorwill
  ['Horned_Puffin', 'n02050769'],
  ['Common_Raven', 'n01581901'], // species: raven, Corvus corax
  ['White_necked_Raven', 'n01581901'], // no species synset: raven (Corvus corax; WordNet has no white-necked raven)
  ['American_Redstart', 'n01570935'],
  ['Geococcyx', 'n01826676'], // genus: roadrunner, Geococcyx californianus
  ['Loggerhead_Shrike', 'n01602197'],
  ['Great_Grey_Shrike', 'n01601800'], // species: European shrike, Lanius excubitor
  ['Baird_Sparrow', 'n01537403'], // no species synset: New World sparrow
  ['Black_throated_Sparrow', 'n01537403'], // no species synset: New World sparrow
  ['Brewer_Sparrow', 'n01537403'], // no species synset: New World sparrow
  ['Chipping_Sparrow', 'n01538676'],
  ['Clay_colored_Sparrow', 'n01537403'], // no species synset: New World sparrow
  ['House_Sparrow', 'n01542566'],
  ['Field_Sparrow', 'n01538827'],
  ['Fox_Sparrow', 'n01537403'], // no species synset: New World sparrow
  ['Grasshopper_Sparrow', 'n01537403'], // no species synset: New World sparrow
  ['Harris_Sparrow', 'n01537403'], // no species synset: New World sparrow
  ['Henslow_Sparrow', 'n01537403'], // no species synset: New World sparrow
  ['Le_Conte_Sparrow', 'n01537403'], // no species synset: New World sparrow
  ['Lincoln_Sparrow', 'n01537403'], // no species synset: New World sparrow
  ['Nelson_Sharp_tailed_Sparrow', 'n01537403'], // no species synset: New World sparrow
  ['Savannah_Sparrow', 'n01537403'], // no species synset: New World sparrow
  ['Seaside_Sparrow', 'n01537403'], // no species synset: New World sparrow
  ['Song_Sparrow', 'n01539285'],
  ['Tree_Sparrow', 'n01538975'], // species: American tree sparrow, Spizella arborea
  ['Vesper_Sparrow', 'n01537781'],
  ['White_crowned_Sparrow', 'n01538331'],
  ['White_throated_Sparrow', 'n01538110'],
  ['Cape_Glossy_Starling', 'n01579336'], // no species synset: starling
  ['Bank_Swallow', 'n01598914'],
  ['Barn_Swallow', 'n01597428'],
  ['Cliff_Swallow', 'n01597609'],
  ['Tree_Swallow', 'n01598091'], // species: white-bellied (tree) swallow, Iridoprocne bicolor
  ['Scarlet_Tanager', 'n01600378'],
  ['Summer_Tanager', 'n01600715'],
  ['Artic_Tern', 'n02045717'], // no species synset: tern
  ['Black_Tern', 'n02045717'], // no species synset: tern
  ['Caspian_Tern', 'n02045717'], // no species synset: tern
  ['Common_Tern', 'n02045987'], // species: sea swallow, Sterna hirundo
  ['Elegant_Tern', 'n02045717'], // no species synset: tern
  ['Forsters_Tern', 'n02045717'], // no species synset: tern
  ['Least_Tern', 'n02045717'], // no species synset: tern
  ['Green_tailed_Towhee', 'n01545074'],
  ['Brown_Thrasher', 'n01590643'],
  ['Sage_Thrasher', 'n01590475'], // no species synset: thrasher
  ['Black_capped_Vireo', 'n01605271'], // no species synset: vireo
  ['Blue_headed_Vireo', 'n01605793'],
  ['Philadelphia_Vireo', 'n01605271'], // no species synset: vireo
  ['Red_eyed_Vireo', 'n01605473'],
  ['Warbling_Vireo', 'n01605271'], // no species synset: vireo
  ['White_eyed_Vireo', 'n01605271'], // no species synset: vireo
  ['Yellow_throated_Vireo', 'n01605271'], // no species synset: vireo
  ['Bay_breasted_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Black_and_white_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Black_throated_Blue_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Blue_winged_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Canada_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Cape_May_Warbler', 'n01571361'],
  ['Cerulean_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Chestnut_sided_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Golden_winged_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Hooded_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Kentucky_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Magnolia_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Mourning_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Myrtle_Warbler', 'n01572064'],
  ['Nashville_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Orange_crowned_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Palm_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Pine_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Prairie_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Prothonotary_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Swainson_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Tennessee_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Wilson_Warbler', 'n01570520'],
  ['Worm_eating_Warbler', 'n01569774'], // no species synset: New World (wood) warbler
  ['Yellow_Warbler', 'n01571533'],
  ['Northern_Waterthrush', 'n01569774'], // no species synset: New World (wood) warbler
  ['Louisiana_Waterthrush', 'n01569774'], // no species synset: New World (wood) warbler
  ['Bohemian_Waxwing', 'n01606594'],
  ['Cedar_Waxwing', 'n01606453'],
  ['American_Three_toed_Woodpecker', 'n01841239'], // no species synset: woodpecker
  ['Pileated_Woodpecker', 'n01841239'], // no species synset: woodpecker
  ['Red_bellied_Woodpecker', 'n01841239'], // no species synset: woodpecker
  ['Red_cockaded_Woodpecker', 'n01841239'], // no species synset: woodpecker
  ['Red_headed_Woodpecker', 'n01843416'], // species: redheaded woodpecker, Melanerpes erythrocephalus
  ['Downy_Woodpecker', 'n01841971'],
  ['Bewick_Wren', 'n01586866'], // no species synset: wren
  ['Cactus_Wren', 'n01589015'],
  ['Carolina_Wren', 'n01588661'],
  ['House_Wren', 'n01587494'],
  ['Marsh_Wren', 'n01587762'],
  ['Rock_Wren', 'n01588356'], // species: rock wren, Salpinctes obsoletus
  ['Winter_Wren', 'n01587336'],
  ['Common_Yellowthroat', 'n01573480'],
];

/** ImageNet-R's classes as ImageNet (WordNet 3.0) wnids, in class-index order (sorted; torchvision ImageFolder). */
export const IMAGENET_R_WNIDS: readonly string[] = [
  'n01443537',
  'n01484850',
  'n01494475',
  'n01498041',
  'n01514859',
  'n01518878',
  'n01531178',
  'n01534433',
  'n01614925',
  'n01616318',
  'n01630670',
  'n01632777',
  'n01644373',
  'n01677366',
  'n01694178',
  'n01748264',
  'n01770393',
  'n01774750',
  'n01784675',
  'n01806143',
  'n01820546',
  'n01833805',
  'n01843383',
  'n01847000',
  'n01855672',
  'n01860187',
  'n01882714',
  'n01910747',
  'n01944390',
  'n01983481',
  'n01986214',
  'n02007558',
  'n02009912',
  'n02051845',
  'n02056570',
  'n02066245',
  'n02071294',
  'n02077923',
  'n02085620',
  'n02086240',
  'n02088094',
  'n02088238',
  'n02088364',
  'n02088466',
  'n02091032',
  'n02091134',
  'n02092339',
  'n02094433',
  'n02096585',
  'n02097298',
  'n02098286',
  'n02099601',
  'n02099712',
  'n02102318',
  'n02106030',
  'n02106166',
  'n02106550',
  'n02106662',
  'n02108089',
  'n02108915',
  'n02109525',
  'n02110185',
  'n02110341',
  'n02110958',
  'n02112018',
  'n02112137',
  'n02113023',
  'n02113624',
  'n02113799',
  'n02114367',
  'n02117135',
  'n02119022',
  'n02123045',
  'n02128385',
  'n02128757',
  'n02129165',
  'n02129604',
  'n02130308',
  'n02134084',
  'n02138441',
  'n02165456',
  'n02190166',
  'n02206856',
  'n02219486',
  'n02226429',
  'n02233338',
  'n02236044',
  'n02268443',
  'n02279972',
  'n02317335',
  'n02325366',
  'n02346627',
  'n02356798',
  'n02363005',
  'n02364673',
  'n02391049',
  'n02395406',
  'n02398521',
  'n02410509',
  'n02423022',
  'n02437616',
  'n02445715',
  'n02447366',
  'n02480495',
  'n02480855',
  'n02481823',
  'n02483362',
  'n02486410',
  'n02510455',
  'n02526121',
  'n02607072',
  'n02655020',
  'n02672831',
  'n02701002',
  'n02749479',
  'n02769748',
  'n02793495',
  'n02797295',
  'n02802426',
  'n02808440',
  'n02814860',
  'n02823750',
  'n02841315',
  'n02843684',
  'n02883205',
  'n02906734',
  'n02909870',
  'n02939185',
  'n02948072',
  'n02950826',
  'n02951358',
  'n02966193',
  'n02980441',
  'n02992529',
  'n03124170',
  'n03272010',
  'n03345487',
  'n03372029',
  'n03424325',
  'n03452741',
  'n03467068',
  'n03481172',
  'n03494278',
  'n03495258',
  'n03498962',
  'n03594945',
  'n03602883',
  'n03630383',
  'n03649909',
  'n03676483',
  'n03710193',
  'n03773504',
  'n03775071',
  'n03888257',
  'n03930630',
  'n03947888',
  'n04086273',
  'n04118538',
  'n04133789',
  'n04141076',
  'n04146614',
  'n04147183',
  'n04192698',
  'n04254680',
  'n04266014',
  'n04275548',
  'n04310018',
  'n04325704',
  'n04347754',
  'n04389033',
  'n04409515',
  'n04465501',
  'n04487394',
  'n04522168',
  'n04536866',
  'n04552348',
  'n04591713',
  'n07614500',
  'n07693725',
  'n07695742',
  'n07697313',
  'n07697537',
  'n07714571',
  'n07714990',
  'n07718472',
  'n07720875',
  'n07734744',
  'n07742313',
  'n07745940',
  'n07749582',
  'n07753275',
  'n07753592',
  'n07768694',
  'n07873807',
  'n07880968',
  'n07920052',
  'n09472597',
  'n09835506',
  'n10565667',
  'n12267677',
];

const IMAGENET_R_ROWS: readonly Row[] = [
  ['goldfish', 'n01446178'],
  ['great white shark', 'n01487491'],
  ['hammerhead', 'n01497116'],
  ['stingray', 'n01500682'],
  ['hen', 'n01795281'],
  ['ostrich', 'n01521519'],
  ['goldfinch', 'n01533819'], // European goldfinch, as ImageNet
  ['junco', 'n01537074'],
  ['bald eagle', 'n01617566'],
  ['vulture', 'n01618959'],
  ['newt', 'n01633311'], // common newt
  ['axolotl', 'n01635418'],
  ['tree frog', 'n01647014'], // Old World tree frog, as ImageNet n01644373
  ['iguana', 'n01680007'], // common iguana
  ['African chameleon', 'n01696819'],
  ['cobra', 'n01750905'], // Indian cobra
  ['scorpion', 'n01773034'],
  ['tarantula', 'n01777391'], // the tropical spider, not the European wolf spider
  ['centipede', 'n01787316'],
  ['peacock', 'n01808784'],
  ['lorikeet', 'n01823187'],
  ['hummingbird', 'n01836446'],
  ['toucan', 'n01846024'],
  ['duck', 'n01849641'], // ImageNet's synset is drake
  ['goose', 'n01858313'],
  ['black swan', 'n01862828'],
  ['koala', 'n01885355'],
  ['jellyfish', 'n01913388'],
  ['snail', 'n01947031'],
  ['lobster', 'n01986122'], // American lobster
  ['hermit crab', 'n01988855'],
  ['flamingo', 'n02010212'],
  ['american egret', 'n02012566'],
  ['pelican', 'n02054499'],
  ['king penguin', 'n02059224'],
  ['grey whale', 'n02068898'],
  ['killer whale', 'n02073946'],
  ['sea lion', 'n02080575'],
  ['chihuahua', 'n02088272'],
  ['shih tzu', 'n02088892'],
  ['afghan hound', 'n02090746'],
  ['basset hound', 'n02090890'],
  ['beagle', 'n02091016'],
  ['bloodhound', 'n02091118'],
  ['italian greyhound', 'n02093684'],
  ['whippet', 'n02093786'],
  ['weimaraner', 'n02094991'],
  ['yorkshire terrier', 'n02097085'],
  ['boston terrier', 'n02099237'],
  ['scottish terrier', 'n02099950'],
  ['west highland white terrier', 'n02100938'],
  ['golden retriever', 'n02102253'],
  ['labrador retriever', 'n02102364'],
  ['cocker spaniels', 'n02104970'],
  ['collie', 'n02108682'],
  ['border collie', 'n02108818'],
  ['rottweiler', 'n02109202'],
  ['german shepherd dog', 'n02109314'],
  ['boxer', 'n02110741'],
  ['french bulldog', 'n02111567'],
  ['saint bernard', 'n02112177'],
  ['husky', 'n02112837'], // Siberian husky
  ['dalmatian', 'n02112993'],
  ['pug', 'n02113610'],
  ['pomeranian', 'n02114670'],
  ['chow chow', 'n02114789'],
  ['pembroke welsh corgi', 'n02115675'],
  ['toy poodle', 'n02116276'],
  ['standard poodle', 'n02116451'],
  ['timber wolf', 'n02117019'],
  ['hyena', 'n02119787'],
  ['red fox', 'n02121674'],
  ['tabby cat', 'n02125697'],
  ['leopard', 'n02131037'],
  ['snow leopard', 'n02131409'],
  ['lion', 'n02131817'],
  ['tiger', 'n02132256'],
  ['cheetah', 'n02132960'],
  ['polar bear', 'n02136736'],
  ['meerkat', 'n02141093'],
  ['ladybug', 'n02168108'],
  ['fly', 'n02192818'],
  ['bee', 'n02209508'],
  ['ant', 'n02222138'],
  ['grasshopper', 'n02229081'],
  ['cockroach', 'n02235990'],
  ['mantis', 'n02238696'],
  ['dragonfly', 'n02271095'],
  ['monarch butterfly', 'n02282624'],
  ['starfish', 'n02319987'],
  ['wood rabbit', 'n02328018'], // cottontail
  ['porcupine', 'n02349279'],
  ['fox squirrel', 'n02359450'],
  ['beaver', 'n02365657'],
  ['guinea pig', 'n02367325'],
  ['zebra', 'n02393701'],
  ['pig', 'n02398058'], // hog, domestic swine
  ['hippopotamus', 'n02401173'],
  ['bison', 'n02413348'], // American bison
  ['gazelle', 'n02425668'],
  ['llama', 'n02440247'],
  ['skunk', 'n02448346'],
  ['badger', 'n02449997'],
  ['orangutan', 'n02483126'],
  ['gorilla', 'n02483486'],
  ['chimpanzee', 'n02484454'],
  ['gibbon', 'n02485993'],
  ['baboon', 'n02489041'],
  ['panda', 'n02513086'], // giant panda
  ['eel', 'n02528752'],
  ['clown fish', 'n02609702'], // anemone fish
  ['puffer fish', 'n02657650'],
  ['accordion', 'n02675461'],
  ['ambulance', 'n02703861'],
  ['assault rifle', 'n02752484'],
  ['backpack', 'n02772753'],
  ['barn', 'n02796518'],
  ['wheelbarrow', 'n02800454'],
  ['basketball', 'n02805592'],
  ['bathtub', 'n02811600'],
  ['lighthouse', 'n02817995'],
  ['beer glass', 'n02826892'],
  ['binoculars', 'n02844544'],
  ['birdhouse', 'n02846922'],
  ['bow tie', 'n02886446'],
  ['broom', 'n02910059'],
  ['bucket', 'n02913195'],
  ['cauldron', 'n02942602'],
  ['candle', 'n02951508'],
  ['cannon', 'n02953692'],
  ['canoe', 'n02954794'],
  ['carousel', 'n02969645'], // the merry-go-round
  ['castle', 'n02983900'], // the fortified building
  ['mobile phone', 'n02995984'], // cellular telephone
  ['cowboy hat', 'n03128821'],
  ['electric guitar', 'n03276921'],
  ['fire engine', 'n03350333'],
  ['flute', 'n03376875'],
  ['gasmask', 'n03429235'],
  ['grand piano', 'n03457685'],
  ['guillotine', 'n03472000'],
  ['hammer', 'n03486255'], // the hand tool
  ['harmonica', 'n03499379'],
  ['harp', 'n03500383'],
  ['hatchet', 'n03504106'], // the small axe, not the tomahawk
  ['jeep', 'n03600138'],
  ['joystick', 'n03608096'], // the manual control, not the aircraft stick
  ['lab coat', 'n03635674'],
  ['lawn mower', 'n03655235'],
  ['lipstick', 'n03681809'],
  ['mailbox', 'n03715732'],
  ['missile', 'n03779037'],
  ['mitten', 'n03780604'],
  ['parachute', 'n03893954'],
  ['pickup truck', 'n03936868'],
  ['pirate ship', 'n03954164'],
  ['revolver', 'n04093385'],
  ['rugby ball', 'n04125632'],
  ['sandal', 'n04140872'],
  ['saxophone', 'n04148141'],
  ['school bus', 'n04153679'],
  ['schooner', 'n04154248'], // the sailing vessel, not the beer glass
  ['shield', 'n04199741'], // the buckler
  ['soccer ball', 'n04261790'],
  ['space shuttle', 'n04273124'],
  ['spider web', 'n04282482'], // the web spun by spiders
  ['steam locomotive', 'n04317156'],
  ['scarf', 'n04332842'], // ImageNet's synset is stole
  ['submarine', 'n04354832'],
  ['tank', 'n04396120'],
  ['tennis ball', 'n04416650'],
  ['tractor', 'n04472736'],
  ['trombone', 'n04494650'],
  ['vase', 'n04529463'],
  ['violin', 'n04544161'],
  ['military aircraft', 'n04559634'], // warplane
  ['wine bottle', 'n04599016'],
  ['ice cream', 'n07630109'],
  ['bagel', 'n07709470'],
  ['pretzel', 'n07711487'],
  ['cheeseburger', 'n07713058'],
  ['hotdog', 'n07713282'],
  ['cabbage', 'n07730316'], // head cabbage (food)
  ['broccoli', 'n07730735'],
  ['cucumber', 'n07734217'],
  ['bell pepper', 'n07736620'],
  ['mushroom', 'n07750720'], // the food, as ImageNet n07734744
  ['Granny Smith', 'n07758289'],
  ['strawberry', 'n07761916'],
  ['lemon', 'n07765558'],
  ['pineapple', 'n07769251'],
  ['banana', 'n07769568'],
  ['pomegranate', 'n07784670'],
  ['pizza', 'n07889783'],
  ['burrito', 'n07896943'],
  ['espresso', 'n07936292'],
  ['volcano', 'n09495727'], // the mountain
  ['baseball player', 'n09854894'], // ballplayer
  ['scuba diver', 'n10585095'],
  ['acorn', 'n12288194'],
];

const EMOJI_ROWS: readonly (readonly [name: string, codepoint: string, group: string, subgroup: string, synset: string])[] = [
  ['dog', '1F415', 'Animals & Nature', 'animal-mammal', 'n02086723'],
  ['cat', '1F408', 'Animals & Nature', 'animal-mammal', 'n02124272'],
  ['horse', '1F40E', 'Animals & Nature', 'animal-mammal', 'n02377103'],
  ['cow', '1F404', 'Animals & Nature', 'animal-mammal', 'n02406106'],
  ['pig', '1F416', 'Animals & Nature', 'animal-mammal', 'n02398058'],
  ['sheep', '1F411', 'Animals & Nature', 'animal-mammal', 'n02414351'],
  ['goat', '1F410', 'Animals & Nature', 'animal-mammal', 'n02419165'],
  ['camel', '1F42A', 'Animals & Nature', 'animal-mammal', 'n02439767'],
  ['elephant', '1F418', 'Animals & Nature', 'animal-mammal', 'n02506148'],
  ['rabbit', '1F407', 'Animals & Nature', 'animal-mammal', 'n02326697'],
  ['mouse', '1F401', 'Animals & Nature', 'animal-mammal', 'n02332897'],
  ['hamster', '1F439', 'Animals & Nature', 'animal-mammal', 'n02345537'],
  ['bear', '1F43B', 'Animals & Nature', 'animal-mammal', 'n02134305'],
  ['koala', '1F428', 'Animals & Nature', 'animal-mammal', 'n01885355'],
  ['panda', '1F43C', 'Animals & Nature', 'animal-mammal', 'n02513086'],
  ['tiger', '1F405', 'Animals & Nature', 'animal-mammal', 'n02132256'],
  ['leopard', '1F406', 'Animals & Nature', 'animal-mammal', 'n02131037'],
  ['lion', '1F981', 'Animals & Nature', 'animal-mammal', 'n02131817'],
  ['monkey', '1F412', 'Animals & Nature', 'animal-mammal', 'n02486953'],
  ['gorilla', '1F98D', 'Animals & Nature', 'animal-mammal', 'n02483486'],
  ['fox', '1F98A', 'Animals & Nature', 'animal-mammal', 'n02120985'],
  ['wolf', '1F43A', 'Animals & Nature', 'animal-mammal', 'n02116752'],
  ['deer', '1F98C', 'Animals & Nature', 'animal-mammal', 'n02432691'],
  ['zebra', '1F993', 'Animals & Nature', 'animal-mammal', 'n02393701'],
  ['giraffe', '1F992', 'Animals & Nature', 'animal-mammal', 'n02441664'],
  ['rhinoceros', '1F98F', 'Animals & Nature', 'animal-mammal', 'n02394646'],
  ['hippopotamus', '1F99B', 'Animals & Nature', 'animal-mammal', 'n02401173'],
  ['kangaroo', '1F998', 'Animals & Nature', 'animal-mammal', 'n01879775'],
  ['hedgehog', '1F994', 'Animals & Nature', 'animal-mammal', 'n01896466'],
  ['bat', '1F987', 'Animals & Nature', 'animal-mammal', 'n02141851'],
  ['otter', '1F9A6', 'Animals & Nature', 'animal-mammal', 'n02447450'],
  ['skunk', '1F9A8', 'Animals & Nature', 'animal-mammal', 'n02448346'],
  ['sloth', '1F9A5', 'Animals & Nature', 'animal-mammal', 'n02459593'],
  ['llama', '1F999', 'Animals & Nature', 'animal-mammal', 'n02440247'],
  ['raccoon', '1F99D', 'Animals & Nature', 'animal-mammal', 'n02510652'],
  ['chicken', '1F414', 'Animals & Nature', 'animal-bird', 'n01794266'],
  ['turkey', '1F983', 'Animals & Nature', 'animal-bird', 'n01796799'],
  ['penguin', '1F427', 'Animals & Nature', 'animal-bird', 'n02058457'],
  ['eagle', '1F985', 'Animals & Nature', 'animal-bird', 'n01615935'],
  ['duck', '1F986', 'Animals & Nature', 'animal-bird', 'n01848972'],
  ['owl', '1F989', 'Animals & Nature', 'animal-bird', 'n01623768'],
  ['swan', '1F9A2', 'Animals & Nature', 'animal-bird', 'n01861082'],
  ['parrot', '1F99C', 'Animals & Nature', 'animal-bird', 'n01819528'],
  ['flamingo', '1F9A9', 'Animals & Nature', 'animal-bird', 'n02010212'],
  ['peacock', '1F99A', 'Animals & Nature', 'animal-bird', 'n01808784'],
  ['frog', '1F438', 'Animals & Nature', 'animal-amphibian', 'n01642406'],
  ['crocodile', '1F40A', 'Animals & Nature', 'animal-reptile', 'n01699819'],
  ['turtle', '1F422', 'Animals & Nature', 'animal-reptile', 'n01665425'],
  ['lizard', '1F98E', 'Animals & Nature', 'animal-reptile', 'n01677105'],
  ['snake', '1F40D', 'Animals & Nature', 'animal-reptile', 'n01729333'],
  ['dinosaur', '1F995', 'Animals & Nature', 'animal-reptile', 'n01702472'],
  ['whale', '1F40B', 'Animals & Nature', 'animal-marine', 'n02065397'],
  ['dolphin', '1F42C', 'Animals & Nature', 'animal-marine', 'n02071627'],
  ['fish', '1F41F', 'Animals & Nature', 'animal-marine', 'n02514684'],
  ['shark', '1F988', 'Animals & Nature', 'animal-marine', 'n01484971'],
  ['octopus', '1F419', 'Animals & Nature', 'animal-marine', 'n01972805'],
  ['snail', '1F40C', 'Animals & Nature', 'animal-bug', 'n01947031'],
  ['butterfly', '1F98B', 'Animals & Nature', 'animal-bug', 'n02276911'],
  ['ant', '1F41C', 'Animals & Nature', 'animal-bug', 'n02222138'],
  ['bee', '1F41D', 'Animals & Nature', 'animal-bug', 'n02209508'],
  ['ladybug', '1F41E', 'Animals & Nature', 'animal-bug', 'n02168108'],
  ['cricket', '1F997', 'Animals & Nature', 'animal-bug', 'n02232196'],
  ['spider', '1F577', 'Animals & Nature', 'animal-bug', 'n01774863'],
  ['scorpion', '1F982', 'Animals & Nature', 'animal-bug', 'n01773034'],
  ['mosquito', '1F99F', 'Animals & Nature', 'animal-bug', 'n02202850'],
  ['rose', '1F339', 'Animals & Nature', 'plant-flower', 'n12640957'],
  ['sunflower', '1F33B', 'Animals & Nature', 'plant-flower', 'n11998702'],
  ['tulip', '1F337', 'Animals & Nature', 'plant-flower', 'n12474664'],
  ['hibiscus', '1F33A', 'Animals & Nature', 'plant-flower', 'n12198361'],
  ['cactus', '1F335', 'Animals & Nature', 'plant-other', 'n11862673'],
  ['palm tree', '1F334', 'Animals & Nature', 'plant-other', 'n12602979'],
  ['mushroom', '1F344', 'Animals & Nature', 'plant-other', 'n13018679'],
  ['clover', '1F340', 'Animals & Nature', 'plant-other', 'n11773047'],
  ['crab', '1F980', 'Food & Drink', 'food-marine', 'n01979598'],
  ['lobster', '1F99E', 'Food & Drink', 'food-marine', 'n01985291'],
  ['shrimp', '1F990', 'Food & Drink', 'food-marine', 'n01989447'],
  ['squid', '1F991', 'Food & Drink', 'food-marine', 'n01973921'],
  ['apple', '1F34E', 'Food & Drink', 'food-fruit', 'n07755101'],
  ['pear', '1F350', 'Food & Drink', 'food-fruit', 'n07783823'],
  ['tangerine', '1F34A', 'Food & Drink', 'food-fruit', 'n07764392'],
  ['lemon', '1F34B', 'Food & Drink', 'food-fruit', 'n07765558'],
  ['banana', '1F34C', 'Food & Drink', 'food-fruit', 'n07769568'],
  ['watermelon', '1F349', 'Food & Drink', 'food-fruit', 'n07772927'],
  ['grape', '1F347', 'Food & Drink', 'food-fruit', 'n07774656'],
  ['strawberry', '1F353', 'Food & Drink', 'food-fruit', 'n07761916'],
  ['cherry', '1F352', 'Food & Drink', 'food-fruit', 'n07773108'],
  ['peach', '1F351', 'Food & Drink', 'food-fruit', 'n07766980'],
  ['pineapple', '1F34D', 'Food & Drink', 'food-fruit', 'n07769251'],
  ['mango', '1F96D', 'Food & Drink', 'food-fruit', 'n07780131'],
  ['coconut', '1F965', 'Food & Drink', 'food-fruit', 'n07788911'],
  ['kiwi', '1F95D', 'Food & Drink', 'food-fruit', 'n07779605'],
  ['tomato', '1F345', 'Food & Drink', 'food-fruit', 'n07749993'],
  ['avocado', '1F951', 'Food & Drink', 'food-vegetable', 'n07780823'],
  ['eggplant', '1F346', 'Food & Drink', 'food-vegetable', 'n07728819'],
  ['potato', '1F954', 'Food & Drink', 'food-vegetable', 'n07726361'],
  ['carrot', '1F955', 'Food & Drink', 'food-vegetable', 'n07746183'],
  ['corn', '1F33D', 'Food & Drink', 'food-vegetable', 'n07747928'],
  ['broccoli', '1F966', 'Food & Drink', 'food-vegetable', 'n07730735'],
  ['cucumber', '1F952', 'Food & Drink', 'food-vegetable', 'n07734217'],
  ['garlic', '1F9C4', 'Food & Drink', 'food-vegetable', 'n07834253'],
  ['onion', '1F9C5', 'Food & Drink', 'food-vegetable', 'n07737962'],
  ['peanut', '1F95C', 'Food & Drink', 'food-vegetable', 'n07753721'],
  ['bread', '1F35E', 'Food & Drink', 'food-prepared', 'n07695101'],
  ['croissant', '1F950', 'Food & Drink', 'food-prepared', 'n07707395'],
  ['pretzel', '1F968', 'Food & Drink', 'food-prepared', 'n07711487'],
  ['bagel', '1F96F', 'Food & Drink', 'food-prepared', 'n07709470'],
  ['pancake', '1F95E', 'Food & Drink', 'food-prepared', 'n07655812'],
  ['cheese', '1F9C0', 'Food & Drink', 'food-prepared', 'n07866305'],
  ['egg', '1F95A', 'Food & Drink', 'food-prepared', 'n07856780'],
  ['hamburger', '1F354', 'Food & Drink', 'food-prepared', 'n07712845'],
  ['pizza', '1F355', 'Food & Drink', 'food-prepared', 'n07889783'],
  ['hotdog', '1F32D', 'Food & Drink', 'food-prepared', 'n07713282'],
  ['sandwich', '1F96A', 'Food & Drink', 'food-prepared', 'n07711710'],
  ['taco', '1F32E', 'Food & Drink', 'food-prepared', 'n07896726'],
  ['burrito', '1F32F', 'Food & Drink', 'food-prepared', 'n07896943'],
  ['popcorn', '1F37F', 'Food & Drink', 'food-prepared', 'n07748612'],
  ['doughnut', '1F369', 'Food & Drink', 'food-sweet', 'n07654678'],
  ['cookie', '1F36A', 'Food & Drink', 'food-sweet', 'n07650764'],
  ['cake', '1F382', 'Food & Drink', 'food-sweet', 'n07644479'],
  ['cupcake', '1F9C1', 'Food & Drink', 'food-sweet', 'n07646632'],
  ['pie', '1F967', 'Food & Drink', 'food-sweet', 'n07641102'],
  ['chocolate', '1F36B', 'Food & Drink', 'food-sweet', 'n07617570'],
  ['lollipop', '1F36D', 'Food & Drink', 'food-sweet', 'n07623214'],
  ['coffee', '2615', 'Food & Drink', 'drink', 'n07945759'],
  ['beer', '1F37A', 'Food & Drink', 'drink', 'n07902824'],
  ['cocktail', '1F378', 'Food & Drink', 'drink', 'n07927917'],
  ['spoon', '1F944', 'Food & Drink', 'dishware', 'n04291140'],
  ['knife', '1F52A', 'Food & Drink', 'dishware', 'n03628765'],
  ['chopsticks', '1F962', 'Food & Drink', 'dishware', 'n03029438'],
  ['bicycle', '1F6B2', 'Travel & Places', 'transport-ground', 'n02837983'],
  ['car', '1F697', 'Travel & Places', 'transport-ground', 'n02961779'],
  ['bus', '1F68C', 'Travel & Places', 'transport-ground', 'n02927500'],
  ['taxi', '1F695', 'Travel & Places', 'transport-ground', 'n02934150'],
  ['ambulance', '1F691', 'Travel & Places', 'transport-ground', 'n02703861'],
  ['fire engine', '1F692', 'Travel & Places', 'transport-ground', 'n03350333'],
  ['police car', '1F693', 'Travel & Places', 'transport-ground', 'n03145716'],
  ['truck', '1F69A', 'Travel & Places', 'transport-ground', 'n04497386'],
  ['tractor', '1F69C', 'Travel & Places', 'transport-ground', 'n04472736'],
  ['motorcycle', '1F3CD', 'Travel & Places', 'transport-ground', 'n03796045'],
  ['scooter', '1F6F4', 'Travel & Places', 'transport-ground', 'n04156439'],
  ['locomotive', '1F682', 'Travel & Places', 'transport-ground', 'n03690149'],
  ['tram', '1F68A', 'Travel & Places', 'transport-ground', 'n04342573'],
  ['skateboard', '1F6F9', 'Travel & Places', 'transport-ground', 'n04233049'],
  ['sailboat', '26F5', 'Travel & Places', 'transport-water', 'n04135600'],
  ['canoe', '1F6F6', 'Travel & Places', 'transport-water', 'n02954794'],
  ['speedboat', '1F6A4', 'Travel & Places', 'transport-water', 'n04280688'],
  ['ship', '1F6A2', 'Travel & Places', 'transport-water', 'n04201332'],
  ['anchor', '2693', 'Travel & Places', 'transport-water', 'n02712226'],
  ['airplane', '2708', 'Travel & Places', 'transport-air', 'n02694015'],
  ['helicopter', '1F681', 'Travel & Places', 'transport-air', 'n03517291'],
  ['rocket', '1F680', 'Travel & Places', 'transport-air', 'n04106523'],
  ['parachute', '1FA82', 'Travel & Places', 'transport-air', 'n03893954'],
  ['satellite', '1F6F0', 'Travel & Places', 'transport-air', 'n04144527'],
  ['house', '1F3E0', 'Travel & Places', 'place-building', 'n03549540'],
  ['castle', '1F3F0', 'Travel & Places', 'place-building', 'n02983900'],
  ['church', '26EA', 'Travel & Places', 'place-religious', 'n03031762'],
  ['tent', '26FA', 'Travel & Places', 'place-other', 'n04418399'],
  ['factory', '1F3ED', 'Travel & Places', 'place-building', 'n03321351'],
  ['sun', '2600', 'Travel & Places', 'sky & weather', 'n09473312'],
  ['cloud', '2601', 'Travel & Places', 'sky & weather', 'n09270316'],
  ['rainbow', '1F308', 'Travel & Places', 'sky & weather', 'n09426302'],
  ['umbrella', '2602', 'Travel & Places', 'sky & weather', 'n04514450'],
  ['snowman', '26C4', 'Travel & Places', 'sky & weather', 'n04259093'],
  ['star', '2B50', 'Travel & Places', 'sky & weather', 'n09467004'],
  ['fire', '1F525', 'Travel & Places', 'sky & weather', 'n13502051'],
  ['hourglass', '231B', 'Travel & Places', 'time', 'n03549323'],
  ['watch', '231A', 'Travel & Places', 'time', 'n04563183'],
  ['alarm clock', '23F0', 'Travel & Places', 'time', 'n02697521'],
  ['balloon', '1F388', 'Activities', 'event', 'n02785116'],
  ['kite', '1FA81', 'Activities', 'game', 'n03626682'],
  ['teddy bear', '1F9F8', 'Activities', 'game', 'n04406517'],
  ['soccer ball', '26BD', 'Activities', 'sport', 'n04261790'],
  ['basketball', '1F3C0', 'Activities', 'sport', 'n02805592'],
  ['baseball', '26BE', 'Activities', 'sport', 'n02802230'],
  ['volleyball', '1F3D0', 'Activities', 'sport', 'n04547339'],
  ['glasses', '1F453', 'Objects', 'clothing', 'n04279164'],
  ['necktie', '1F454', 'Objects', 'clothing', 'n03821155'],
  ['t-shirt', '1F455', 'Objects', 'clothing', 'n03600807'],
  ['jeans', '1F456', 'Objects', 'clothing', 'n03599921'],
  ['dress', '1F457', 'Objects', 'clothing', 'n03241438'],
  ['sock', '1F9E6', 'Objects', 'clothing', 'n04261887'],
  ['glove', '1F9E4', 'Objects', 'clothing', 'n03446036'],
  ['scarf', '1F9E3', 'Objects', 'clothing', 'n04150962'],
  ['coat', '1F9E5', 'Objects', 'clothing', 'n03061006'],
  ['handbag', '1F45C', 'Objects', 'clothing', 'n02777157'],
  ['backpack', '1F392', 'Objects', 'clothing', 'n02772753'],
  ['sandal', '1F461', 'Objects', 'clothing', 'n04140872'],
  ['boot', '1F462', 'Objects', 'clothing', 'n02876113'],
  ['sneaker', '1F45F', 'Objects', 'clothing', 'n03477658'],
  ['crown', '1F451', 'Objects', 'clothing', 'n03143320'],
  ['top hat', '1F3A9', 'Objects', 'clothing', 'n03242119'],
  ['ring', '1F48D', 'Objects', 'clothing', 'n04099721'],
  ['lipstick', '1F484', 'Objects', 'clothing', 'n03681809'],
  ['guitar', '1F3B8', 'Objects', 'musical-instrument', 'n03472449'],
  ['violin', '1F3BB', 'Objects', 'musical-instrument', 'n04544161'],
  ['trumpet', '1F3BA', 'Objects', 'musical-instrument', 'n03115320'],
  ['saxophone', '1F3B7', 'Objects', 'musical-instrument', 'n04148141'],
  ['drum', '1F941', 'Objects', 'musical-instrument', 'n03254272'],
  ['banjo', '1FA95', 'Objects', 'musical-instrument', 'n02790645'],
  ['accordion', '1FA97', 'Objects', 'musical-instrument', 'n02675461'],
  ['microphone', '1F3A4', 'Objects', 'music', 'n03765483'],
  ['headphones', '1F3A7', 'Objects', 'music', 'n03266479'],
  ['bell', '1F514', 'Objects', 'sound', 'n02827590'],
  ['telephone', '260E', 'Objects', 'phone', 'n04408223'],
  ['mobile phone', '1F4F1', 'Objects', 'phone', 'n02995984'],
  ['laptop', '1F4BB', 'Objects', 'computer', 'n03648120'],
  ['keyboard', '2328', 'Objects', 'computer', 'n03619216'],
  ['computer mouse', '1F5B1', 'Objects', 'computer', 'n03799022'],
  ['printer', '1F5A8', 'Objects', 'computer', 'n04011143'],
  ['television', '1F4FA', 'Objects', 'light & video', 'n04413042'],
  ['camera', '1F4F7', 'Objects', 'light & video', 'n02946154'],
  ['light bulb', '1F4A1', 'Objects', 'light & video', 'n03671250'],
  ['candle', '1F56F', 'Objects', 'light & video', 'n02951508'],
  ['flashlight', '1F526', 'Objects', 'light & video', 'n03363983'],
  ['radio', '1F4FB', 'Objects', 'music', 'n04050813'],
  ['battery', '1F50B', 'Objects', 'computer', 'n02813606'],
  ['book', '1F4D5', 'Objects', 'book-paper', 'n02873453'],
  ['newspaper', '1F4F0', 'Objects', 'book-paper', 'n03827711'],
  ['envelope', '2709', 'Objects', 'mail', 'n03296730'],
  ['pencil', '270F', 'Objects', 'writing', 'n03914323'],
  ['scissors', '2702', 'Objects', 'office', 'n04155119'],
  ['paperclip', '1F4CE', 'Objects', 'office', 'n03892459'],
  ['briefcase', '1F4BC', 'Objects', 'office', 'n02903988'],
  ['lock', '1F512', 'Objects', 'lock', 'n03687813'],
  ['key', '1F511', 'Objects', 'lock', 'n03618503'],
  ['hammer', '1F528', 'Objects', 'tool', 'n03486255'],
  ['axe', '1FA93', 'Objects', 'tool', 'n02767049'],
  ['wrench', '1F527', 'Objects', 'tool', 'n04613932'],
  ['screwdriver', '1FA9B', 'Objects', 'tool', 'n04161626'],
  ['saw', '1FA9A', 'Objects', 'tool', 'n04147147'],
  ['magnet', '1F9F2', 'Objects', 'tool', 'n03710918'],
  ['ladder', '1FA9C', 'Objects', 'tool', 'n03637568'],
  ['shield', '1F6E1', 'Objects', 'tool', 'n04199741'],
  ['microscope', '1F52C', 'Objects', 'science', 'n03766206'],
  ['telescope', '1F52D', 'Objects', 'science', 'n04410773'],
  ['syringe', '1F489', 'Objects', 'medical', 'n04383963'],
  ['pill', '1F48A', 'Objects', 'medical', 'n03942844'],
  ['door', '1F6AA', 'Objects', 'household', 'n03226423'],
  ['bed', '1F6CF', 'Objects', 'household', 'n02821967'],
  ['couch', '1F6CB', 'Objects', 'household', 'n04263630'],
  ['chair', '1FA91', 'Objects', 'household', 'n03005231'],
  ['toilet', '1F6BD', 'Objects', 'household', 'n04453655'],
  ['bathtub', '1F6C1', 'Objects', 'household', 'n02811600'],
  ['broom', '1F9F9', 'Objects', 'household', 'n02910059'],
  ['basket', '1F9FA', 'Objects', 'household', 'n02805104'],
  ['soap', '1F9FC', 'Objects', 'household', 'n04260547'],
  ['toothbrush', '1FAA5', 'Objects', 'household', 'n04460427'],
  ['bucket', '1FAA3', 'Objects', 'household', 'n02913195'],
  ['mirror', '1FA9E', 'Objects', 'household', 'n03778568'],
];

/** U+FE0F is appended to these base code points (default text presentation) to get the emoji glyph. */
const TEXT_DEFAULT = new Set([
  '1F3CD',
  '1F56F',
  '1F577',
  '1F5A8',
  '1F5B1',
  '1F6CB',
  '1F6CF',
  '1F6E1',
  '1F6F0',
  '2328',
  '2600',
  '2601',
  '2602',
  '260E',
  '2702',
  '2708',
  '2709',
  '270F',
]);

function emojiList(): EmojiClassList {
  const emoji: EmojiClass[] = EMOJI_ROWS.map(([name, codepoint, group, subgroup]) => ({
    name,
    emoji: String.fromCodePoint(parseInt(codepoint, 16)) + (TEXT_DEFAULT.has(codepoint) ? '\uFE0F' : ''),
    codepoint,
    group,
    subgroup,
  }));
  return {
    id: 'emoji',
    name: 'Emoji objects',
    source: 'CIL Lab: concrete single-emoji concepts (animals, plants, food, vehicles, household objects…) with their code points',
    classes: EMOJI_ROWS.map((r) => r[0]),
    synsets: EMOJI_ROWS.map((r) => r[4]),
    emoji,
  };
}

export const CIFAR10 = list('cifar10', 'CIFAR-10', 'CIFAR-10 label order (torchvision CIFAR10.classes)', CIFAR10_ROWS);
export const CIFAR100 = list('cifar100', 'CIFAR-100', 'CIFAR-100 fine-label index order (meta fine_label_names)', CIFAR100_ROWS);
export const MNIST = list('mnist', 'MNIST', 'MNIST digits 0–9, named as words', MNIST_ROWS);
export const FASHION_MNIST = list('fashion-mnist', 'Fashion-MNIST', 'Fashion-MNIST label order (torchvision FashionMNIST.classes)', FASHION_MNIST_ROWS);
export const CUB200 = list('cub200', 'CUB-200-2011', 'CUB-200-2011 classes.txt order, names after "NNN."', CUB200_ROWS);
export const IMAGENET_R = list('imagenet-r', 'ImageNet-R', 'ImageNet-R: its 200 ImageNet classes in sorted-wnid order (IMAGENET_R_WNIDS)', IMAGENET_R_ROWS);
export const EMOJI: EmojiClassList = emojiList();

export const BUILTIN_CLASS_LISTS: readonly ClassList[] = [CIFAR10, CIFAR100, MNIST, FASHION_MNIST, CUB200, IMAGENET_R, EMOJI];

export const BUILTIN_CLASS_LIST_IDS: readonly BuiltinClassListId[] = BUILTIN_CLASS_LISTS.map((l) => l.id);

/** The built-in list with this id; throws an Error listing the valid ids for an unknown one. */
export function getClassList(id: string): ClassList {
  const key = id.trim().toLowerCase();
  const found = BUILTIN_CLASS_LISTS.find((l) => l.id === key);
  if (!found) {
    throw new Error(`Unknown class list "${id}". Valid ids: ${BUILTIN_CLASS_LIST_IDS.join(', ')}.`);
  }
  return found;
}
