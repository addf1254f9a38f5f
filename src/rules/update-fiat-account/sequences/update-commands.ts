/**
 * The steps of a sequence, as fast-check commands (model-based testing): each sends one
 * guaranteed update to one of the sequence's accounts, judges the answer against the model of
 * what the sequence stored (account-model.ts), and throws when the answer contradicts it, so
 * that fast-check shrinks the sequence to the shortest one that still shows it.
 */
import fc from 'fast-check';
import type { TestCase } from '../../../core/case.ts';
import type { Exchange } from '../../../core/exchange.ts';
import type { AccountModel, AnswerJudgement, SequenceRule } from './account-model.ts';

/** What a command acts on: the model, and the target behind the run. */
export interface SequenceWorld {
  model: AccountModel;
  /** Sends an update of account `index` (0-based), judged by every check like any other exchange. */
  send(index: number, c: TestCase): Promise<Exchange>;
  /** Every answer's judgement, for the rules' outcomes. */
  judged(exchange: Exchange, judgement: AnswerJudgement): void;
  /** The steps so far, as a reader sees them. */
  steps: string[];
}

/** An answer that contradicts the model: fast-check sees the throw and shrinks. */
export class SequenceFailure extends Error {
  constructor(
    readonly rule: SequenceRule,
    readonly exchange: Exchange,
    readonly steps: readonly string[],
  ) {
    super(`${rule} failed after ${steps.length} steps`);
  }
}

// Distinct ASCII names (guaranteed values): a value shown by the wrong account tells where it came from.
const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Emmy', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Claude', 'Hedy'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Noether', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Shannon', 'Lamarr'];
const METADATA_VALUES = ['north', 'south', 'east', 'west', 'up', 'down', 'left', 'right'];
/** The one metadata key a sequence writes (under merge fitted to a key the account holds when it is full). */
export const SEQUENCE_KEY = 'sequence';

const update = (label: string, body: Record<string, unknown>): TestCase => ({ operation: 'updateFiatAccount', mode: 'valid', label, body });

/** An update of the owner names (both or one), a metadata pair, or nothing (which shows what the account holds). */
export function ownerNamesUpdate(names: { first_name?: string; last_name?: string }): TestCase {
  return update(`owner names ${Object.values(names).join(' ')}`, { fiat_account_owner: { person_details: names } });
}
export const metadataUpdate = (value: string): TestCase => update(`metadata ${SEQUENCE_KEY}=${value}`, { metadata: { [SEQUENCE_KEY]: value } });
export const emptyUpdate = (): TestCase => update('an empty update (shows what the account holds)', {});

class UpdateCommand implements fc.AsyncCommand<object, SequenceWorld> {
  constructor(
    private readonly index: number,
    private readonly testCase: TestCase,
  ) {}

  check(): boolean {
    return true;
  }

  async run(_model: object, world: SequenceWorld): Promise<void> {
    await runStep(world, this.index, this.testCase);
  }

  toString(): string {
    return `account ${this.index + 1}: ${this.testCase.label}`;
  }
}

/** Sends one step, judges it, and throws the first contradiction. */
export async function runStep(world: SequenceWorld, index: number, c: TestCase): Promise<void> {
  const step = `account ${index + 1}: ${c.label}`;
  world.steps.push(step);
  const exchange = await world.send(index, {
    ...c,
    label: `sequence step ${world.steps.length}, ${step}`,
    sequence: { step: world.steps.length, account: index + 1 },
  });
  const judgement = world.model.observe(index, exchange);
  world.judged(exchange, judgement);
  const [failing] = judgement.problems.keys();
  if (failing) throw new SequenceFailure(failing, exchange, [...world.steps]);
}

/** The commands of a sequence over `accounts` accounts. */
export function updateCommands(accounts: number, maxCommands: number): fc.Arbitrary<Iterable<fc.AsyncCommand<object, SequenceWorld>>> {
  const account = fc.nat({ max: accounts - 1 });
  const names = fc.oneof(
    fc.record({ first_name: fc.constantFrom(...FIRST_NAMES), last_name: fc.constantFrom(...LAST_NAMES) }),
    fc.record({ first_name: fc.constantFrom(...FIRST_NAMES) }),
    fc.record({ last_name: fc.constantFrom(...LAST_NAMES) }),
  );
  return fc.commands(
    [
      fc.tuple(account, names).map(([i, n]) => new UpdateCommand(i, ownerNamesUpdate(n))),
      fc.tuple(account, fc.constantFrom(...METADATA_VALUES)).map(([i, v]) => new UpdateCommand(i, metadataUpdate(v))),
      account.map((i) => new UpdateCommand(i, emptyUpdate())),
    ],
    { maxCommands },
  );
}

/** The opening of every sequence: each account gets names and a metadata value of its own, so a later leak shows. */
export function openingUpdate(index: number): TestCase {
  const body = {
    fiat_account_owner: { person_details: { first_name: FIRST_NAMES[index], last_name: LAST_NAMES[index] } },
    metadata: { [SEQUENCE_KEY]: `opening-${index + 1}` },
  };
  return update(`opening: owner names ${FIRST_NAMES[index]} ${LAST_NAMES[index]}, metadata ${SEQUENCE_KEY}=opening-${index + 1}`, body);
}
