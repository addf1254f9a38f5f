/** Random cases per rule of each profile, on top of the deterministic boundary cases that always run. */
export const PROFILES = { quick: 10, standard: 50, deep: 400 } as const;
export type Profile = keyof typeof PROFILES;
