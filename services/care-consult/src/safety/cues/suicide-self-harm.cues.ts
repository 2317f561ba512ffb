import { gap, words, type CueSpec } from '../red-flag-cue';

// Suicidal intent and self-harm cues. Intent cues are flagged so that an "if" only excuses them in a
// joke or about a third person ("what do I do if my friend wants to kill herself").

const SELF = '(?:myself|himself|herself|themselves|themself)';

/** Suicidal intent cues, first or third person, present or planned. */
export const SUICIDE_CUES: readonly CueSpec[] = [
  {
    id: 'sui.kill',
    re: `(?:kill|killing|off|end|ending) ${SELF}`,
    stems: words('kill killing off end ending'),
    unless:
      /\bkill\w* (myself|himself|herself) (laughing|with laughter|at the gym|at work|with work|studying|working|over (this|that|the)|for (this|that|forgetting))\b/,
    intent: true,
  },
  {
    id: 'sui.word',
    re: 'suicidal|suicide|suicides',
    stems: words('suicidal suicide suicides'),
    intent: true,
  },
  {
    id: 'sui.endlife',
    re: `(?:end|ending|take|taking|ended|took) (?:my|his|her|their) (?:own )?life|end it all|ending it all|end it tonight|(?:planning|plan|going|ready|decided|want|wanting) (?:how )?to end it(?! with)`,
    stems: words('life all tonight end'),
    intent: true,
  },
  {
    id: 'sui.die',
    re: `(?<!me )(?:want|wanting|wish|ready|deserve) (?:to )?die|(?:wish|wishing) (?:i was|i were|to be|i could be) dead|better off dead|(?:do not|not|no longer) want to (?:live|be alive|be here|exist|wake up|go on|carry on|keep going)(?: anymore| any more)?|(?:no|not any|nothing to|no more) (?:point|reason) (?:in |to |for )?(?:living|live|life|going on|being alive|carry on|carrying on)(?: anymore| any more)?|better off without me|(?:do not|cannot|not) see (?:the |any )?(?:point|reason) (?:in |of |to |for )?(?:living|life|live|going on|being alive|carrying on)(?: anymore| any more)?`,
    stems: words('die dead live living life alive exist wake go carry keep without point reason'),
    unless: /\bdie (of|from) (embarrassment|shame|boredom|laughter|laughing|cringe|happiness|cuteness)\b/,
    intent: true,
    keepsAfter: true,
  },
  {
    id: 'sui.plan',
    re: '(?:going to|want to|plan to|planning to|about to|will|ready to) (?:overdose|take an overdose|take all (?:my|the|of my) (?:pills|tablets|meds)|hang myself|slit my wrists)|(?:nobody|no one) (?:would|will) (?:miss me|care if i (?:died|was gone|was dead|disappeared))|(?:tied|made|got|have) (?:a |the )?noose',
    stems: words('overdose take hang slit nobody one noose'),
    intent: true,
  },
  {
    id: 'sui.done',
    re: '(?:done|finished) with (?:life|living|it all)|tired of (?:living|being alive)|(?:life|living|it) (?:is not|is no longer|not|isnt) worth (?:living|it)(?: anymore| any more)?|not worth living',
    stems: words('done finished tired worth'),
    intent: true,
    jokeProne: true,
    keepsAfter: true,
  },
  {
    id: 'sui.die_caused',
    re: '(?:makes?|made|making) me (?:want to|wanna) die',
    stems: words('die'),
    intent: true,
    jokeProne: true,
  },
  {
    id: 'sui.jumpplace',
    re: `(?:jump|jumping|throw myself) (?:off|from|in front of|under)${gap(2)} (?:bridge|roof|building|cliff|balcony|ledge|train|car|bus|tower|window|overpass|motorway|lorry|truck)`,
    stems: words('jump jumping throw'),
    intent: true,
  },
  {
    id: 'sui.ledge',
    re: '(?:standing|sitting|stood|up) on (?:the|a|this|top of the) (?:bridge|ledge|roof|edge|rooftop|railing|parapet|cliff)',
    stems: words('standing sitting stood up'),
  },
  { id: 'sui.jump', re: '(?:going|about|want|ready) to jump', stems: words('jump'), intent: true },
  {
    id: 'sui.method',
    re: `how many${gap(3)} (?:would it take|does it take|will it take|to take|needed) to (?:kill|die|end)|(?:pills|tablets|paracetamol)${gap(4)} (?:to )?(?:kill me|kill myself|die|end it|not wake up|never wake up)`,
    stems: words('many pills tablets paracetamol'),
    selfDirected: true,
    intent: true,
  },
  // ADR 0428: how long a method takes ("how long does it take to die from slitting your wrists")
  {
    id: 'sui.method_time',
    re: `how long (?:does|would|will|did) it take (?:for (?:me|someone|you) )?to (?:die|bleed out) (?:from|by|after|if (?:i|you))${gap(2)} (?:slitting|cutting|slit|cut|hanging|hang|overdosing|overdose|taking|swallowing|jumping|drowning|suffocating)`,
    stems: words('long'),
    selfDirected: true,
    intent: true,
  },
  // ADR 0428: the means set aside ("the tablets lined up", "I've been saving up my pills")
  {
    id: 'sui.stock',
    re: `(?:pills|tablets|meds|medication|paracetamol|painkillers)${gap(2)} (?:lined up|counted out|all saved up|saved up|stockpiled|hoarded)|(?:saving|saved|stockpiling|stockpiled|hoarding|hoarded) (?:up )?(?:my |the |all my |all the |some of my )?(?:pills|tablets|meds|medication|paracetamol|painkillers)`,
    stems: words(
      'pills tablets meds medication paracetamol painkillers saving saved stockpiling stockpiled hoarding hoarded',
    ),
    // a household's supply, not means set aside: "stockpiling paracetamol because of the shortage"
    unless: /\b(shortages?|in case|expiry|expire|because of|for the (winter|trip|holiday|holidays))\b/,
    intent: true,
  },
];

/** Self-harm cues: urges or acts of deliberately hurting oneself (accidents are look-alikes). */
export const SELF_HARM_CUES: readonly CueSpec[] = [
  {
    id: 'sh.intent',
    re: `(?:want|wanting|going|need|needing|urge|urges|tempted|about|planning|trying|desperate|itching) (?:to )?(?:cut|hurt|harm|burn|punish|injure|hit|scratch|starve) (?:myself|my (?:arm|arms|wrist|wrists|leg|legs|thigh|thighs|skin))|(?:been|keep|kept|started|start|am|is|are|cannot stop|still|feel like|felt like|thinking about|thinking of) (?:cutting|hurting|harming|burning|hitting|scratching|punching|bruising|injuring) (?:myself|herself|himself|themselves|my (?:arm|arms|wrist|wrists|legs|thighs|skin))(?!(?: some| a)? (?:slack|break|deal|short|loose|off|out))|(?:cut|burned|burnt|hurt|harmed|hit|scratched) (?:myself|my (?:arm|arms|wrist|wrists|leg|legs|thigh|thighs|skin))${gap(4)} (?:on purpose|deliberately|intentionally|again|deep|deeply|to cope)|(?:i am|i have been|i keep|i started|i have started) (?:cutting|burning) (?:again|tonight|every day|more|more and more)|self (?:harm|harming|harmed|harms|injury|injuring)|relapsed${gap(4)} (?:cut|cutting|hurt|harm|harmed|burned|self harm)|(?:scratching|picking|hitting|punching|cutting) (?:myself|my skin|my arms?)${gap(2)} until (?:i|it) (?:bleed|bleeds|bled)`,
    stems: words('myself herself himself themselves my self relapsed cutting burning'),
    intent: true,
  },
  {
    id: 'sh.act',
    re: '(?:cut|burned|burnt|harmed) (?:myself|my (?:arm|arms|wrist|wrists|thigh|thighs|skin))',
    stems: words('myself my'),
    intent: true,
  },
  {
    id: 'sh.again',
    re: '(?:want|need|going|urge) to do it again|(?:want|need) to do it more',
    stems: words('again more'),
    intent: true,
  },
  {
    id: 'sh.about',
    re: '(?:about|going|want|need|ready) to cut(?! (?:the|a|an|my hair|his|her|it|this|that|some|down|back|off|out|ties|in|up|through|costs|carbs|sugar))',
    stems: words('cut'),
    intent: true,
  },
  {
    id: 'sh.blade',
    re: 'blade|blades|razor|razors|knife|scissors|lighter',
    stems: words('blade blades razor razors knife scissors lighter'),
  },
];
