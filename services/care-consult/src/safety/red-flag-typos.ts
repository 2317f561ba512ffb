// Small typo tolerance for the words the cues anchor on. Two layers: an explicit map of misspellings
// people actually type in a hurry, then a one-edit (Damerau) match against a short list of long medical
// words. Short words are never fuzzed: "stroke"/"strike" or "fit"/"fat" are one edit apart.

// "typo=correction" pairs; "_" stands for a space in multi-word corrections ("alot=a_lot").
const EXPLICIT_PAIRS =
  'breth=breathe brethe=breathe brathe=breathe breahte=breathe breathin=breathing brething=breathing ' +
  'breating=breathing atack=attack attak=attack attck=attack atatck=attack atak=attack hart=heart ' +
  'chesst=chest chst=chest strok=stroke storke=stroke siezure=seizure seizur=seizure seazure=seizure ' +
  'seisure=seizure seizer=seizure siezures=seizures seizers=seizures siezing=seizing seizeing=seizing ' +
  'suicde=suicide sucide=suicide suicdal=suicidal sucidal=suicidal suicidial=suicidal suicidle=suicidal ' +
  'suisidal=suicidal kil=kill myslef=myself myselfe=myself mysef=myself meself=myself ' +
  'overdoseing=overdosing overdozed=overdosed overdossed=overdosed ovedosed=overdosed ' +
  'anafylaxis=anaphylaxis anaphalaxis=anaphylaxis anaphylaxsis=anaphylaxis anaphylaxes=anaphylaxis ' +
  'anafalaxis=anaphylaxis anaphylatic=anaphylactic anafylactic=anaphylactic anaphalactic=anaphylactic ' +
  'unconcious=unconscious unconsious=unconscious unconsciuos=unconscious unconscience=unconscious ' +
  'unresponsve=unresponsive unrepsonsive=unresponsive bleedin=bleeding bleding=bleeding ' +
  'bledding=bleeding bleeing=bleeding menengitis=meningitis meningitus=meningitis menigitis=meningitis ' +
  'meningites=meningitis sepssis=sepsis sepis=sepsis sespis=sepsis spesis=sepsis droopin=drooping ' +
  'drooopy=droopy slured=slurred sluring=slurring tihnk=think thnk=think thikn=think thibk=think ' +
  'preggers=pregnant preggo=pregnant pregnat=pregnant pregant=pregnant prego=pregnant babys=baby ' +
  'bubs=baby alot=a_lot alittle=a_little pls=please plz=please u=you ur=your wanna=want_to ' +
  'gonna=going_to gotta=got_to kinda=kind_of paracetemol=paracetamol paracetamal=paracetamol ' +
  'tylenols=tylenol epipens=epipen epinephrin=epinephrine';
const EXPLICIT = new Map<string, string>(
  EXPLICIT_PAIRS.split(' ').map((pair) => {
    const [typo, fix] = pair.split('=') as [string, string];
    return [typo, fix.replace(/_/g, ' ')];
  }),
);

// Long words the cues anchor on; a token one edit away from one of them is read as that word.
const FUZZY_VOCABULARY =
  'anaphylaxis anaphylactic unconscious unresponsive meningitis breathing bleeding suicidal overdosed overdosing overdose drooping seizures seizure convulsing paracetamol ibuprofen antifreeze pregnant contractions fontanelle slurring swelling gasping choking wheezing collapsed'.split(
    ' ',
  );

// Real words one edit away from a vocabulary word; they must never be "corrected".
const PROTECTED = new Set(
  'breeding bleating bleeping blending pleading overdone overdoes drooling dropping trooping stooping smelling spelling dwelling shelling swilling blurring cooking chocking rasping grasping clasping breathes breather wreathing sheathing seizured convincing gassing slurping wheeling pregnancy collapses collapse'.split(
    ' ',
  ),
);

const VOCAB_SET = new Set(FUZZY_VOCABULARY);
const MIN_FUZZY_LENGTH = 7;
const CACHE_LIMIT = 20_000;
const cache = new Map<string, string>();

/** True when a and b are at most one insertion, deletion, substitution or adjacent transposition apart. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

function fuzzy(token: string): string {
  if (token.length < MIN_FUZZY_LENGTH || VOCAB_SET.has(token) || PROTECTED.has(token)) return token;
  if (!/^[a-z]+$/.test(token)) return token;
  for (const word of FUZZY_VOCABULARY) {
    if (withinOneEdit(token, word)) return word;
  }
  return token;
}

/** The corrected form of one lower-case token (may expand to two words, e.g. "alot" -> "a lot"). */
export function correctToken(token: string): string {
  const cached = cache.get(token);
  if (cached !== undefined) return cached;
  const corrected = EXPLICIT.get(token) ?? fuzzy(token);
  // Bounded so a stream of unique junk tokens cannot grow memory without limit.
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(token, corrected);
  return corrected;
}
