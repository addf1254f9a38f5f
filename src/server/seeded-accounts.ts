/** Fiat accounts the embedded server seeds unless asked for more: a run against it reads and updates them. */
export const MIN_ACCOUNTS = 3;
