/**
 * The profiles: random cases per rule, on top of the deterministic boundary cases that always
 * run, and what each costs a target in requests.
 */
import { PLANNED_REQUESTS_BY_PROFILE } from './planned-requests.ts';

export const PROFILES = { quick: 10, standard: 50, deep: 400 } as const;
export type Profile = keyof typeof PROFILES;

/** Requests each profile plans, computed by plan.ts into a module of their own (npm run generate-planned-requests). */
export const PLANNED_REQUESTS: Readonly<Record<Profile, number>> = PLANNED_REQUESTS_BY_PROFILE;

/**
 * A remote run's default profile is the deepest whose requests stay within this budget: a
 * sandbox at 10 requests a second answers it in two minutes. (It was 1,000 until issue 32's
 * scenarios brought standard to exactly that: one request more would have made quick the remote
 * default without anyone choosing it.)
 */
export const REMOTE_REQUEST_BUDGET = 1200;

/** The default profile: chosen by the request budget for a remote target; standard on loopback. */
export function defaultProfile(remote: boolean): Profile {
  if (!remote) return 'standard';
  const within = (Object.keys(PROFILES) as Profile[]).filter((p) => PLANNED_REQUESTS[p] <= REMOTE_REQUEST_BUDGET);
  return within.reduce((deepest, p) => (PROFILES[p] > PROFILES[deepest] ? p : deepest), 'quick');
}
