/** The parts of a request body that faults look at (deviations.ts), each with its JSON pointer. */
import type { Operation } from './behaviour.ts';
import { isPlainObject } from './json-body.ts';

type Body = Record<string, unknown>;

/** A value of the body and where it is. */
export interface Part<T> {
  pointer: string;
  value: T;
}

export function personDetails(body: Body): Body | undefined {
  return isPlainObject(body.person_details) ? body.person_details : undefined;
}

/** The person whose names a body carries: the update's owner or the identity's person_details. */
export function namedPerson(operation: Operation, body: Body): Part<Body> | undefined {
  if (operation === 'createIdentity') {
    const person = personDetails(body);
    return person && { pointer: '/person_details', value: person };
  }
  const owner = body.fiat_account_owner;
  const person = isPlainObject(owner) ? owner.person_details : undefined;
  return isPlainObject(person) ? { pointer: '/fiat_account_owner/person_details', value: person } : undefined;
}

/** first_name and last_name of the named person, when they are strings. */
export function names(operation: Operation, body: Body): Part<string>[] {
  const person = namedPerson(operation, body);
  if (!person) return [];
  return ['first_name', 'last_name']
    .filter((key) => typeof person.value[key] === 'string')
    .map((key) => ({ pointer: `${person.pointer}/${key}`, value: person.value[key] as string }));
}

/** The wire instructions of an update, when they are an object. */
function wire(body: Body): Body | undefined {
  const instructions = body.fiat_network_instructions;
  return isPlainObject(instructions) && isPlainObject(instructions.wire) ? instructions.wire : undefined;
}

/** Every address object of the body: the identity's, or the update's owner and bank addresses. */
export function addresses(operation: Operation, body: Body): Part<Body>[] {
  const found: Part<unknown>[] = [];
  if (operation === 'createIdentity') found.push({ pointer: '/person_details/address', value: personDetails(body)?.address });
  const instructions = operation === 'updateFiatAccount' ? wire(body) : undefined;
  if (instructions) {
    const routing = instructions.routing_details;
    found.push({ pointer: '/fiat_network_instructions/wire/fiat_account_owner_address', value: instructions.fiat_account_owner_address });
    found.push({ pointer: '/fiat_network_instructions/wire/routing_details/bank_address', value: isPlainObject(routing) ? routing.bank_address : undefined });
  }
  return found.filter((part): part is Part<Body> => isPlainObject(part.value));
}

/** The routing_number_type of an update's wire instructions, when it is a string. */
export function routingNumberType(body: Body): string | undefined {
  const routing = wire(body)?.routing_details;
  return isPlainObject(routing) && typeof routing.routing_number_type === 'string' ? routing.routing_number_type : undefined;
}

/** Every key and string value of a JSON value, at any depth. */
export function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (isPlainObject(value)) return Object.entries(value).flatMap(([key, member]) => [key, ...strings(member)]);
  return [];
}
