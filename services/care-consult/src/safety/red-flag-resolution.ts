import { normalizeMessage } from './red-flag-normalize';

/**
 * The resolution signal of the red-flag screen (ADR 0418): a follow-up turn that says an earlier scare is over
 * ("Found it, panic over!", "That's all resolved now", "The paramedics said it was just a faint"). For such a turn
 * the semantic stage's context join (the earlier turns joined with the latest message) may not refuse on its own
 * score: it still counts for the suicidal-intent and self-harm check and for the veto, and the latest message and
 * its sentences are scored as always, so a new danger in the latest message still refuses.
 *
 * Deliberately narrow, because a missed emergency costs more than a needless refusal:
 * - only explicit statements that the scare is over or was not real; "he's fine now" is not one (a child who
 *   swallowed a button battery looks fine);
 * - none when the latest message also says it came back or got worse ("again", "worse", "still", "but", ...);
 * - none in a question or a condition ("is it a false alarm?", "if it has stopped");
 * - none negated ("she is not back to normal");
 * - none when an earlier turn speaks of something swallowed, taken or done to oneself (overdose, poisoning,
 *   self-harm, suicide): looking well does not end those.
 */

// Statements that the scare is over or was not real, on normalised text (contractions expanded, lower case,
// clauses separated by " / "). Each is bounded: words and single spaces, no open-ended repetition.
const CLAUSE_END = '(?= /| ,|$)';
const RESOLUTION: readonly RegExp[] = [
  /\bpanic over\b/,
  /\bfalse alarm\b/,
  /\ball clear\b/,
  new RegExp(`\\bfound it${CLAUSE_END}`),
  // "that is all resolved now", "it has all settled", "everything is sorted" (at the end of the clause: not "it is
  // all over his legs", "it has settled on his chest")
  new RegExp(
    `\\b(?:it|that|this|everything|all) (?:is|has|has been|was) (?:all |now |completely |totally )?(?:resolved|sorted|settled|sorted out|over)(?: now| down| completely)?${CLAUSE_END}`,
  ),
  // "it stopped after about 30 seconds", "it has passed": the thing itself ended (not "he stopped breathing")
  new RegExp(
    `\\bit (?:has |had )?(?:stopped|passed|settled|cleared|gone|gone away|worn off)(?: (?:now|on its own|by itself|completely|after (?:about |around |just )?(?:a|an|[a-z0-9]+) (?:seconds?|minutes?|mins?|secs?)))?${CLAUSE_END}`,
  ),
  /\bback to (?:normal|himself|herself|themselves|myself|her usual self|his usual self|her normal self|his normal self)\b/,
  // "he is sat up and chatting", "she is sitting up talking"
  /\b(?:sat|sitting) up (?:and )?(?:chatting|talking|laughing|joking|eating|drinking)\b/,
  // "turns out it was just red dye", "it was just a dream", "it was only a nightmare"
  /\b(?:turns out|turned out|it was|that was)(?: just| only)? (?:nothing|not serious)\b/,
  /\b(?:turns out|turned out|it was|that was) (?:just|only) (?:a|an|the|some|from|because|my|his|her|their)\b/,
  // "the paramedics said it was a faint" only with a benign word: "said it was just", "said nothing is wrong"
  /\b(?:paramedics?|ambulance|crew|doctors?|gp|nurse|midwife|hospital|a and e|consultant|111|vet) (?:said|say|says|told (?:us|me|him|her)|confirmed|think|thinks|checked [a-z]+ (?:over|out) and said)(?: that)? (?:it was|it is|he is|she is|they are|i am|he was|she was|it was a|it is a)? ?(?:just|only|nothing|fine|ok|okay|normal|harmless|not serious|nothing serious)\b/,
  // "he is home and resting", "they discharged him", "she was discharged", "sent us home" (not "she was home alone")
  /\b(?:he|she|they|we|i) (?:is|are|am) (?:back )?home (?:now|and (?:resting|sleeping|settled|fine|well|safe))\b/,
  /\bdischarged (?:him|her|them|me|us)\b|\b(?:was|were|got|has been|have been|is|are) discharged\b|\bsent (?:him|her|them|us|me) home\b/,
  // ADR 0428. A retraction at the start of a clause: "never mind, he was asleep", "scratch that", "ignore that"
  new RegExp(
    `(?:^|\\/ )(?:never mind|nevermind|scratch that|ignore (?:that|me|my last (?:message|question|one))|my mistake|sorry to (?:panic|worry|scare|alarm) you)${CLAUSE_END}`,
  ),
  new RegExp(`(?:^|\\/ )all (?:good|ok|okay|fine|well|sorted)(?: now| here| again)?${CLAUSE_END}`),
  // "I am safe now", "he is stable on the ward", "she is stable now" (not "fine now": a child who swallowed a
  // battery looks fine)
  /\b(?:i am|he is|she is|they are|we are|we are all|everyone is) (?:safe|stable)(?: now| again| on the ward| in hospital)?\b/,
  // the sign itself ended: "the bleeding has stopped", "the seizure stopped after 2 minutes" (bleeding, fitting or
  // shaking; not pain, which can ease in a heart attack)
  new RegExp(
    `\\bthe (?:bleeding|bleed|seizure|fit|shaking|twitching|jerking|nosebleed|nose bleed) (?:has |had )?(?:stopped|stopped completely|settled|passed|finished)(?: (?:now|on its own|by itself|after (?:[a-z]+ ){0,3}?(?:a|an|[a-z0-9]+) (?:seconds?|minutes?|mins?|secs?)))?${CLAUSE_END}`,
  ),
  // "she came round and is chatting", "he has woken up properly now" (then asleep, not unconscious)
  new RegExp(
    `\\b(?:came|come|has come|had come) round(?: (?:after|within|in) [a-z0-9 ]{1,30}?)?(?: and\\b| now\\b|${CLAUSE_END})|\\b(?:is|has) woken up (?:properly|fully)\\b`,
  ),
  /\b(?:have|has|i have|i am|i) calmed down(?: now)?\b|\bi can breathe (?:fine|normally|properly|ok|okay) (?:now|again)\b/,
  // care has taken over: "we are back home from a and e", "he has been checked at the hospital", "the ambulance
  // took him in", "the nurse called back and said it is fine to wait"
  /\b(?:back|got|came|come|are|is|am) home from (?:the )?(?:hospital|a e|a and e|ae|er|emergency|urgent care|walk in|the walk in)\b/,
  /\b(?:been|was|were|got) (?:checked|seen|checked over|looked at|examined|assessed) (?:over )?(?:by|at|in) (?:the |a )?(?:hospital|doctors?|gp|paramedics?|a e|a and e|ae|nurse|midwife|triage|maternity|er)\b/,
  /\b(?:ambulance|paramedics?|crew) (?:came and )?(?:took|have taken|has taken) (?:him|her|them|me|us) in\b/,
  /\bout of (?:the )?(?:hospital|a e|a and e|ae)(?: now)?\b/,
  // a professional has seen them: "the gp saw her this afternoon", "the midwife checked"
  new RegExp(
    `\\b(?:gp|doctors?|nurse|paramedics?|midwife|consultant|pharmacist) (?:saw|has seen|have seen|checked|has checked|examined|assessed)(?: (?:him|her|them|me|us|the baby))?(?: over| out)?(?: this (?:morning|afternoon|evening)| today)?${CLAUSE_END}`,
  ),
  // a test came back clear: "the ctg was perfect", "throat swab negative", "bloods came back normal"
  /\b(?:tests?|bloods?|blood tests?|ecg|ctg|scan|scans|swab|x ray|xray|ct|mri|urine test)(?: (?!not\b|no\b|never\b)[a-z]+)? (?:was|were|is|are|came back|come back|showed nothing|all)? ?(?:fine|normal|perfect|clear|negative|all clear|ok|okay)\b/,
  // the glass test passed: "the rash faded under the glass", "the glass test showed the spots fade"
  /\b(?:rash|spots|marks|dots) (?:faded|fades|fade|went|goes|disappeared|disappears)(?: away)? (?:under|with) (?:the|a) glass\b|\bglass test (?:showed|shows|showed that|shows that) (?:the )?(?:rash|spots|marks|dots)? ?(?:fade|faded|fades|disappear|disappeared|go away|went away)\b/,
  // "turns out she had just put her phone on silent", "coughed the sweet out"
  /\b(?:turns out|turned out) (?:he|she|they|it) (?:had |was |were |is )?(?:just|only)\b/,
  /\bcoughed (?:it|the [a-z]+|[a-z]+) (?:out|up)(?: (?:on (?:her|his|their) own|by (?:herself|himself|themselves)|straight away))?\b/,
  /\b(?:i am|he is|she is|they are|we are) breathing (?:normally|fine|properly|ok|okay)\b/,
  /(?:\b(?:paramedics?|ambulance|crew|doctors?|gp|nurse|midwife|hospital|a e|a and e|consultant|111|they)(?: (?:[a-z0-9]+|,)){0,4}?|(?:^|\/)) (?:said|say|says|told (?:us|me|him|her)) (?:that )?(?:it is|it was|he is|she is|they are|i am) (?:fine|ok|okay|nothing|a panic attack|an? (?:simple )?faint|anxiety|a virus|a migraine|dehydration|just)\b/,
];

// Anything that says the danger is back, worse or ongoing: the join keeps its vote.
const RELAPSE =
  /\b(?:(?<!\b(?:normally|normal|fine|ok|okay|well|himself|herself|themselves|myself|properly) )again|worse|worsening|still|but|however|although|though|except|started|starting|restarted|returned|come back|came back|coming back|another|anymore|any more|not breathing|collapsed|unconscious|wont wake|will not wake|cannot wake|cant wake)\b/;
// "should I still log it?" asks about a record, not an ongoing danger.
const STILL_QUESTION = /\b(?:should|do|can|could) (?:i|we) still\b/g;
// A resolution inside a question or condition is not a statement that it is over.
const CONDITIONAL = /\b(?:if|unless|until|once|whether|when|in case)\b/;
const NEGATED_BEFORE = /\b(?:not|no|never|no longer|nothing|hardly)(?: [a-z]+)?$/;

// Turns about something swallowed, taken or self-inflicted: looking well later does not resolve them.
const LATENT_DANGER =
  /\b(?:swallow\w*|overdos\w*|overdid|od|too (?:many|much)|took (?:[0-9]+|all|the whole|a whole|lots|loads|a handful|handfuls|a bunch|an? (?:packet|pack|box|bottle|strip))|pills?|tablets?|capsules?|medicines?|medication|insulin|paracetamol|drunk|batter(?:y|ies)|magnets?|poison\w*|bleach|detergent|chemicals?|fumes|carbon monoxide|suicid\w*|kill (?:my|him|her|them)sel(?:f|ves)|end (?:it|my life|things)|goodbyes?|self harm\w*|cut (?:myself|himself|herself)|cutting|hurt (?:myself|himself|herself)|hurting (?:myself|himself|herself)|bridge|ledge|rope|noose)\b/;

/** True when `sentence` (normalised) states that a scare is over, outside a question, condition or negation. */
function statesResolution(sentence: string, question: boolean): boolean {
  if (question || CONDITIONAL.test(sentence)) return false;
  return RESOLUTION.some((re) => {
    const m = re.exec(sentence);
    return m !== null && !NEGATED_BEFORE.test(sentence.slice(0, m.index).trimEnd());
  });
}

/**
 * Whether the latest message says the scare of the earlier turns is over (see the module comment), so the
 * context join may not refuse on its own. Never throws; false for anything it does not recognise.
 */
export function resolvesEarlierScare(latest: string, earlier: readonly string[] = []): boolean {
  if (typeof latest !== 'string' || latest.trim() === '') return false;
  const sentences = splitRaw(latest);
  let resolved = false;
  for (const raw of sentences) {
    const text = normalizeMessage(raw).text.toLowerCase().replace(/ \| /g, ' / ');
    const lower = raw.toLowerCase().replace(/[\u2018\u2019']/g, '');
    if (RELAPSE.test(text.replace(STILL_QUESTION, '')) || RELAPSE.test(lower.replace(STILL_QUESTION, '')))
      return false;
    if (statesResolution(text, /\?\s*$/.test(raw))) resolved = true;
  }
  if (!resolved) return false;
  return ![latest, ...earlier].some(
    (m) => typeof m === 'string' && LATENT_DANGER.test(normalizeMessage(m).text.toLowerCase()),
  );
}

/** Raw sentences, split after . ! ? and at line breaks, keeping the question mark to tell questions apart. */
function splitRaw(text: string): string[] {
  return text
    .slice(0, 2000)
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
