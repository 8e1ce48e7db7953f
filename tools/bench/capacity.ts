import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { projectedAttributes, tableDefinition, type IndexName } from '../../infra/cdk/table-definition';

/** An item as the document client sends and returns it; a call as the bench's middleware saw it. */
export type Item = Record<string, unknown>;
/** Where write units land: the table itself, and each global secondary index (ADR 0017 reports them apart). */
export type WriteDestination = 'table' | IndexName;
export type WritesByDestination = Record<WriteDestination, number>;
/** A call's units, its write units split by destination (they add up to `write`). */
export type BilledUnits = { read: number; write: number; writes: WritesByDestination };
export type MeteredCall = { operation: string; input: Item; output: Item | undefined };
/** The stored item under a key, read after the call: what an update left, with no size in the answer. */
export type ItemLookup = (key: Item) => Item | undefined;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** Significant digits, two to a byte, plus one byte (and one more when negative). */
export function numberSize(value: string): number {
  const digits = value.replace(/^-|[eE].*$|\./g, '').replace(/^0+|0+$/g, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1 + (value.startsWith('-') ? 1 : 0);
}

function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  const members = value.SS?.map(utf8) ?? value.NS?.map(numberSize) ?? value.BS?.map((bytes) => bytes.byteLength);
  if (members !== undefined) return members.reduce((size, member) => size + member, 0);
  if (value.L !== undefined) return 3 + value.L.reduce((size, element) => size + valueSize(element) + 1, 0);
  if (value.M !== undefined) {
    return 3 + Object.entries(value.M).reduce((size, [name, element]) => size + utf8(name) + valueSize(element) + 1, 0);
  }
  throw new Error(`unknown attribute value type: ${Object.keys(value).join(', ')}`);
}

/** Attribute names count as much as their values; the item is marshalled as the document client does. */
export function itemSize(item: Item): number {
  const marshalled = marshall(item, { removeUndefinedValues: true });
  return Object.entries(marshalled).reduce((size, [name, value]) => size + utf8(name) + valueSize(value), 0);
}

export const readUnits = (bytes: number, consistent: boolean) =>
  Math.max(1, Math.ceil(bytes / 4096)) * (consistent ? 1 : 0.5);

/** The table and its indexes, in the table definition's order (gsi1 to gsi6). */
export const writeDestinations: readonly WriteDestination[] = [
  'table',
  ...tableDefinition.globalSecondaryIndexes.map((index) => index.indexName),
];

const noWrites = (): WritesByDestination =>
  Object.fromEntries(writeDestinations.map((destination) => [destination, 0])) as WritesByDestination;

/** Write units added destination by destination. */
function addWrites(...all: readonly WritesByDestination[]): WritesByDestination {
  const sum = noWrites();
  for (const writes of all) for (const destination of writeDestinations) sum[destination] += writes[destination];
  return sum;
}

const totalOf = (writes: WritesByDestination) =>
  writeDestinations.reduce((total, destination) => total + writes[destination], 0);

/**
 * The table's write and the writes of the indexes holding the item ("Provisioned throughput considerations for Global
 * Secondary Indexes"): a put (`changed` absent) writes each index whose keys it has once; an update writes an index
 * twice when it moves the item's key in it (the old entry deleted, the new one put), once when it sets only attributes
 * the index copies (or takes the item out of it), not at all otherwise. Without the item as it was, an update that
 * sets an index key is billed as a move even when the item only enters the index (one write): an upper bound. An
 * index entry of `KEYS_ONLY` is its keys, under 1 KB; any other entry is billed at the item's size.
 */
export function writesByDestination(item: Item | undefined, changed?: ReadonlySet<string>): WritesByDestination {
  const units = Math.max(1, Math.ceil((item ? itemSize(item) : 0) / 1024));
  const writes = noWrites();
  writes.table = units;
  for (const index of tableDefinition.globalSecondaryIndexes) {
    const entryUnits = index.projection.type === 'KEYS_ONLY' ? 1 : units;
    const inIndex = item?.[index.partitionKey] !== undefined && item?.[index.sortKey] !== undefined;
    const keyWritten = changed !== undefined && (changed.has(index.partitionKey) || changed.has(index.sortKey));
    const copied =
      changed === undefined ||
      index.projection.type === 'ALL' ||
      projectedAttributes(index).some((name) => changed.has(name));
    if (keyWritten) writes[index.indexName] = (inIndex ? 2 : 1) * entryUnits;
    else if (inIndex && copied) writes[index.indexName] = entryUnits;
  }
  return writes;
}

/** The attributes an update expression sets, adds, deletes or removes (names resolved). */
export function updatedAttributes(input: { UpdateExpression?: unknown; ExpressionAttributeNames?: unknown }) {
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const expression = String(input.UpdateExpression ?? '');
  const written = /(#?[A-Za-z_]\w*)\s*=(?!=)|\b(?:ADD|DELETE)\s+(#?[A-Za-z_]\w*)/g;
  const targets = [...expression.matchAll(written)].map((match) => match[1] ?? match[2] ?? '');
  const removed = /\bREMOVE\s+([^]*?)(?=\b(?:SET|ADD|DELETE)\b|$)/.exec(expression)?.[1] ?? '';
  targets.push(...removed.split(',').map((name) => name.trim()));
  return new Set(targets.filter(Boolean).map((name) => names[name] ?? name));
}

/**
 * What DynamoDB on demand bills for one call by its documented rules ("Item sizes and formats", "Capacity unit
 * consumption"), not DynamoDB Local's figures (docs/performance.md, section 2). A write refused by its condition is
 * billed like the write (for a cancelled transaction an upper bound: AWS does not document it); an update is sized by
 * the item it left, within a few bytes of the larger of before and after.
 */
export function billedUnits(call: MeteredCall, lookup: ItemLookup): BilledUnits {
  const { input, output } = call;
  const reads = (read: number): BilledUnits => ({ read, write: 0, writes: noWrites() });
  const written = (writes: WritesByDestination): BilledUnits => ({ read: 0, write: totalOf(writes), writes });
  switch (call.operation) {
    case 'GetItem':
    case 'Query': {
      const found = [output?.Item ?? output?.Items ?? []].flat() as Item[];
      const bytes = found.reduce((size, item) => size + itemSize(item), 0);
      return reads(readUnits(bytes, input.ConsistentRead === true));
    }
    case 'BatchGetItem': {
      let read = 0;
      const requests = input.RequestItems as Record<string, { Keys: Item[]; ConsistentRead?: boolean }>;
      const responses = (output?.Responses ?? {}) as Record<string, Item[]>;
      for (const [table, request] of Object.entries(requests)) {
        for (const key of request.Keys) {
          const found = (responses[table] ?? []).find((item) => item.pk === key.pk && item.sk === key.sk);
          read += readUnits(found ? itemSize(found) : 0, request.ConsistentRead === true);
        }
      }
      return reads(read);
    }
    case 'PutItem':
      return written(writesByDestination(input.Item as Item));
    case 'UpdateItem': {
      const after = input.ReturnValues === 'ALL_NEW' ? (output?.Attributes as Item) : lookup(input.Key as Item);
      return written(writesByDestination(after, updatedAttributes(input)));
    }
    case 'DeleteItem':
      // A deleted item cannot be read afterwards; what this service deletes (markers, records) stays under 1 KB.
      return written(writesByDestination(undefined));
    case 'ConditionCheckItem': {
      // Billed as a write of the item checked, which it does not change: no index is written.
      const checked = lookup(input.Key as Item);
      return written({ ...noWrites(), table: Math.max(1, Math.ceil((checked ? itemSize(checked) : 0) / 1024)) });
    }
    case 'TransactWriteItems': {
      // Each item billed as the call of its kind (a ConditionCheck as a write of the item), twice: DynamoDB prepares and
      // commits it.
      const writes = (kind: string, item: unknown) =>
        billedUnits({ operation: `${kind}Item`, input: item as Item, output: undefined }, lookup).writes;
      const entries = (input.TransactItems as Item[]).flatMap((entry) => Object.entries(entry));
      const once = addWrites(...entries.map(([kind, item]) => writes(kind, item)));
      return written(addWrites(once, once));
    }
    default:
      throw new Error(`${call.operation}: capacity not modelled`);
  }
}

/** What DynamoDB Local put in ConsumedCapacity (one object, or one per table). */
export function reportedUnits(output: Item | undefined): number {
  const consumed = [output?.ConsumedCapacity ?? []].flat() as { CapacityUnits?: number }[];
  return consumed.reduce((units, entry) => units + (entry.CapacityUnits ?? 0), 0);
}
