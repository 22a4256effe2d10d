/** Spec 000 §9: the sign-in screen picks one of 14 background pictures on each visit. */
export const BACKGROUND_COUNT = 14;

/** URL of background `n` (1…14) under /backgrounds. */
export const backgroundUrl = (n: number) => `/backgrounds/background-${String(n).padStart(2, '0')}.svg`;

/** A random background for this visit. */
export function pickBackground(random: () => number = Math.random): string {
  return backgroundUrl(1 + Math.floor(random() * BACKGROUND_COUNT));
}
