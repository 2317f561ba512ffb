import type { RedFlagCategory } from './red-flag-types';

// One sentence that every message starts from, so the number to call is never missing or inconsistent.
const CALL_NOW =
  'Call your local emergency number now (911 in the US, 112 in Europe, 999 in the UK) or ask someone nearby to call.';

/**
 * What to do now, per category. Deliberately short: the person may be reading this during an emergency.
 * Written for this project from common first-aid guidance (FAST for stroke, pressure for bleeding,
 * adrenaline auto-injector for anaphylaxis); it is not a substitute for the dispatcher's instructions.
 */
export const RED_FLAG_ADVICE: Readonly<Record<RedFlagCategory, string>> = {
  stroke_fast: `This may be a stroke. ${CALL_NOW} Note the time the symptoms started. Do not drive to hospital yourself and do not eat or drink.`,
  heart_attack: `This may be a heart attack. ${CALL_NOW} Sit down and rest while you wait. If you are not allergic to aspirin and have been told it is safe for you, chew one adult aspirin (300 mg).`,
  breathing_difficulty: `Serious difficulty breathing is an emergency. ${CALL_NOW} Sit upright, loosen tight clothing, and use your reliever inhaler if you have one. If someone is choking, give back blows and abdominal thrusts.`,
  anaphylaxis: `This may be anaphylaxis, a life-threatening allergic reaction. Use an adrenaline auto-injector (EpiPen) into the outer thigh now if one is available. ${CALL_NOW} Lie down with legs raised (sit up if breathing is hard); a second dose may be given after 5 minutes if there is no improvement.`,
  severe_bleeding: `Severe bleeding is an emergency. ${CALL_NOW} Press firmly on the wound with a clean cloth or your hand and keep pressing; do not remove soaked dressings, add more on top.`,
  suicidal_intent: `It sounds like you may be thinking about ending your life or be in danger of it. You deserve support right now, and you do not have to go through this alone. If you are in immediate danger, ${CALL_NOW.charAt(0).toLowerCase()}${CALL_NOW.slice(1)} In the US you can call or text 988 (Suicide & Crisis Lifeline); in the UK and Ireland call Samaritans on 116 123. If you can, move away from anything you could use to hurt yourself and stay with someone you trust.`,
  self_harm: `It sounds like you may have hurt yourself or be about to. You deserve support right now. If you are badly hurt or in danger, ${CALL_NOW.charAt(0).toLowerCase()}${CALL_NOW.slice(1)} In the US call or text 988; in the UK and Ireland call Samaritans on 116 123. If you can, put distance between you and anything you could hurt yourself with, and reach out to someone you trust.`,
  overdose_poisoning: `This may be an overdose or poisoning. ${CALL_NOW} In the US you can also call Poison Control on 1-800-222-1222. Do not make the person vomit; keep the packet or bottle to show the paramedics. If the person is unresponsive but breathing, put them in the recovery position.`,
  sepsis: `These could be signs of sepsis, which needs treatment in hospital straight away. ${CALL_NOW} Say that you are worried about sepsis.`,
  meningitis: `These could be signs of meningitis or meningococcal sepsis. ${CALL_NOW} Do not wait for a rash to appear or get worse.`,
  seizure: `A seizure that lasts more than 5 minutes, repeats, causes injury or is a first seizure needs emergency help. ${CALL_NOW} Move hard objects away, cushion the head, do not put anything in the mouth, and once the jerking stops turn the person on their side.`,
  pregnancy_emergency: `This needs urgent care for you and your baby. ${CALL_NOW} If you are already under a maternity unit, tell them on the way. Do not wait to see if it settles.`,
  child_emergency: `This is an emergency for a child. ${CALL_NOW} If the child is not breathing normally, start CPR and follow the dispatcher's instructions. Do not give food or drink.`,
  unresponsive: `Someone who is unresponsive needs emergency help. ${CALL_NOW} Check for breathing: if they are not breathing normally, start CPR (hard, fast chest compressions) and ask for a defibrillator; if they are breathing, put them in the recovery position.`,
};
