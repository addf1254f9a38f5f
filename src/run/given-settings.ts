/**
 * The settings of a run as a caller gave them, before they are checked: `conformance run`'s flags
 * (as parseArgs typed them) or the library's options (typed values), each with its environment
 * twin (CONFORMANCE_*) filling what is left unset. One table names every setting three ways
 * (run-flags.ts: the flag, its variable, its option). Every value keeps the name it was given under
 * (`--concurrency`, `concurrency`, `CONFORMANCE_CONCURRENCY`), so the one resolver
 * (run-config.ts resolveSettings) refuses a bad value in the caller's own terms. Nothing is turned
 * into flag text and parsed back.
 */
import { parseCommandArgs } from './command-args.ts';
import { RUN_OPTIONS } from './run-flags.ts';
import { wholeNumberSetting, type WholeNumberRange } from './whole-number-flag.ts';

/** Environment variables, as `process.env` holds them. */
export type Env = Record<string, string | undefined>;

/** A setting of a run, by its flag's name (`help` is no setting). */
export type SettingKey = Exclude<keyof typeof RUN_OPTIONS, 'help'>;

/** Who gives the settings: the command line names them as flags, the library as options. */
export type Caller = 'cli' | 'library';

/** One setting's value and the name it was given under: a flag, an option or an environment variable. */
export interface Given {
  readonly value: unknown;
  readonly name: string;
  readonly from: 'flag' | 'option' | 'env';
}

export interface GivenSettings {
  readonly caller: Caller;
  /** The setting's value as given, or undefined when neither the caller nor its environment gave it. */
  get(key: SettingKey): Given | undefined;
}

/**
 * A flag's name among the library's options (ConformanceOptions), from the flag table
 * (run-flags.ts `option`); the flags of the command line's own output (listing rules, quiet,
 * JSON) have none, only their environment twin.
 */
export const optionName = (key: SettingKey): string | undefined => (RUN_OPTIONS[key] as { option?: string }).option;

/** Every option name of the flag table, as a type (tests/api/option-errors.test.ts checks it against ConformanceOptions). */
export type OptionName = Extract<(typeof RUN_OPTIONS)[SettingKey], { option: string }>['option'];

/** A setting as the caller names it when it gave none (in a message that says what to add). */
export const callerName = (caller: Caller, key: SettingKey): string => (caller === 'cli' ? `--${key}` : (optionName(key) ?? `--${key}`));

/** The name a setting was given under, or the caller's name for it. */
export const nameOf = (settings: GivenSettings, key: SettingKey): string => settings.get(key)?.name ?? callerName(settings.caller, key);

/** A flag's environment twin, an empty or blank variable counting as unset (`CONFORMANCE_SEED=` in a .env template). */
function envTwin(env: Env, key: SettingKey): Given | undefined {
  const variable = (RUN_OPTIONS[key] as { env?: string }).env;
  const value = variable ? env[variable] : undefined;
  return value === undefined || value.trim() === '' ? undefined : { value, name: variable!, from: 'env' };
}

/** A value counts as given unless absent, an empty list, or a switch left off (the environment may turn it on). */
const isGiven = (value: unknown): boolean => value !== undefined && value !== false && !(Array.isArray(value) && !value.length);

function givenSettings(caller: Caller, env: Env, own: (key: SettingKey) => Given | undefined): GivenSettings {
  return { caller, get: (key) => own(key) ?? envTwin(env, key) };
}

/** Flag values as parseArgs gives them (keyed by flag), for `conformance run` and the commands that share its flags. */
export function settingsOfFlagValues(values: object, env: Env): GivenSettings {
  const flags = values as Readonly<Record<string, unknown>>;
  return givenSettings('cli', env, (key) => (isGiven(flags[key]) ? { value: flags[key], name: `--${key}`, from: 'flag' } : undefined));
}

/** `conformance run`'s (or `plan`'s) command line, or null for --help. */
export function settingsOfArgv(argv: string[], env: Env, command = 'run'): GivenSettings | null {
  const { values } = parseCommandArgs(command, argv, RUN_OPTIONS);
  return values.help ? null : settingsOfFlagValues(values, env);
}

/** The library's options (ConformanceOptions), read under the option names of the flag table. */
export function settingsOfOptions(options: object, env: Env = {}): GivenSettings {
  return givenSettings('library', env, (key) => {
    const name = optionName(key);
    if (name === undefined) return undefined;
    const value = name
      .split('.')
      .reduce<unknown>((at, part) => (at === null || typeof at !== 'object' ? undefined : (at as Record<string, unknown>)[part]), options);
    return isGiven(value) ? { value, name, from: 'option' } : undefined;
  });
}

/** How an empty value is told to go away: a flag is left out, an option too. */
const leaveOut = (given: Given): string => (given.from === 'option' ? 'leave the option out' : 'leave the flag out');

/** A setting of one text value (a number or another value typed by an untyped caller as its text). */
export function textOf(settings: GivenSettings, key: SettingKey): string | undefined {
  const given = settings.get(key);
  return given === undefined ? undefined : String(given.value);
}

/** A whole-number setting, checked under the name it was given with. */
export function wholeNumberOf(settings: GivenSettings, key: SettingKey, range: WholeNumberRange = {}): number | undefined {
  const given = settings.get(key);
  return given === undefined ? undefined : wholeNumberSetting(given.name, given.value, range, leaveOut(given));
}

/** A switch: on when the flag or option says so, or when its environment twin says 1, true or yes. */
export function switchOf(settings: GivenSettings, key: SettingKey): boolean {
  const given = settings.get(key);
  return given !== undefined && (given.from === 'env' ? /^(1|true|yes)$/i.test(String(given.value)) : given.value === true);
}

/** A repeatable setting: its entries, each possibly comma-separated, trimmed; a reading given as an object is its key=value pairs. */
export function listOf(settings: GivenSettings, key: SettingKey): string[] {
  const value = settings.get(key)?.value;
  const entries: unknown[] =
    value === undefined
      ? []
      : Array.isArray(value)
        ? value
        : typeof value === 'object' && value !== null
          ? Object.entries(value).map(([k, v]) => `${k}=${v}`)
          : [value];
  return entries
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}
