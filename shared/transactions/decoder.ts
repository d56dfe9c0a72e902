/**
 * The CancellationReasons decoder: paste a TransactionCanceledException message (any SDK's, or a
 * log line containing one) or a CancellationReasons JSON array, optionally the request, and learn
 * which action failed and why.
 */
import type { Convention } from '../model';
import { err, ok, type Result } from '../result';
import { explainReasons, inferActions, type RawReason } from './reasons';
import type { AttributeValueJson, Decoded, ItemJson, TransactItemJson } from './types';

const OPERATIONS = ['Put', 'Delete', 'Update', 'ConditionCheck'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isItemJson(value: unknown): value is ItemJson {
  return isRecord(value) && Object.values(value).every((v) => isRecord(v) && Object.keys(v).length === 1);
}

function toReason(value: unknown): RawReason | undefined {
  if (typeof value === 'string') return { Code: value };
  if (!isRecord(value)) return undefined;
  const code = value.Code ?? value.code;
  if (typeof code !== 'string') return undefined;
  const message = value.Message ?? value.message;
  const item = value.Item ?? value.item;
  return { Code: code, ...(typeof message === 'string' ? { Message: message } : {}), ...(isItemJson(item) ? { Item: item } : {}) };
}

/** Reasons from parsed JSON: an array of reasons, or an object carrying CancellationReasons or a message. */
function reasonsFromJson(value: unknown): RawReason[] | string | undefined {
  if (Array.isArray(value)) {
    const reasons = value.map(toReason);
    return reasons.every((r): r is RawReason => r !== undefined) ? reasons : undefined;
  }
  if (!isRecord(value)) return undefined;
  const list = value.CancellationReasons ?? value.cancellationReasons;
  if (list !== undefined) return reasonsFromJson(list);
  const message = value.message ?? value.Message ?? value.errorMessage;
  return typeof message === 'string' ? message : undefined;
}

const KNOWN_CODES =
  /^(None|ConditionalCheckFailed|TransactionConflict|ItemCollectionSizeLimitExceeded|ProvisionedThroughputExceeded|ThrottlingError|ValidationError|TransactionCancelled)$/;

/** Reasons from free text: "…specific reasons [None, ConditionalCheckFailed]…" or an inspected object listing `Code: '…'`. */
function reasonsFromText(text: string): RawReason[] | undefined {
  // Bounded gaps keep every pattern linear in the text's length (a paste must never freeze main).
  const bracket =
    /cancellation reasons[^[]{0,200}\[([^[\]]{0,4000})\]/i.exec(text) ?? /\[\s*((?:[A-Za-z]+\s*,\s*)*[A-Za-z]+)\s*\]/.exec(text);
  if (bracket?.[1] !== undefined) {
    const codes = bracket[1].split(',').map((c) => c.trim());
    if (codes.length > 0 && codes.every((c) => KNOWN_CODES.test(c))) return codes.map((Code) => ({ Code }));
  }
  const listed = [...text.matchAll(/["']?Code["']?\s*[:=]\s*["']?([A-Za-z]+)/g)].map((m) => m[1] ?? '');
  if (listed.length > 0 && listed.every((c) => KNOWN_CODES.test(c))) return listed.map((Code) => ({ Code }));
  return undefined;
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\f' || c === '\v';

/**
 * The text from the first `[ {` to the last `} ]` (whitespace allowed between), found in one pass
 * from each end. It replaces `/\[\s*\{[\s\S]*\}\s*\]/`, which backtracks to the end of the text from
 * every `[{` (quadratic time: a long run of `[{` in pasted text hung the decoder for seconds).
 */
export function embeddedArray(text: string): string | undefined {
  const open = /\[\s*\{/.exec(text);
  if (!open) return undefined;
  for (let end = text.lastIndexOf(']'); end > open.index; end = text.lastIndexOf(']', end - 1)) {
    let i = end - 1;
    while (i > open.index && isSpace(text[i])) i--;
    if (text[i] === '}' && i > open.index) return text.slice(open.index, end + 1);
    // Whitespace before a `]` that is not preceded by `}` can be skipped: no earlier `]` lies inside it.
    end = i + 1;
  }
  return undefined;
}

/** Parses the pasted error into raw reasons; `source` says whether they came from JSON or a message. */
export function parseReasons(error: string): Result<{ source: 'json' | 'message'; reasons: RawReason[] }> {
  const text = error.trim();
  const json = tryJson(text);
  if (json !== undefined) {
    const found = reasonsFromJson(json);
    if (Array.isArray(found)) return ok({ source: 'json', reasons: found });
    if (typeof found === 'string') {
      const fromMessage = reasonsFromText(found);
      if (fromMessage) return ok({ source: 'message', reasons: fromMessage });
    }
  }
  // A JSON array embedded in a longer text (e.g. "CancellationReasons: [{...}]").
  const embedded = embeddedArray(text);
  const inner = embedded !== undefined ? reasonsFromJson(tryJson(embedded)) : undefined;
  if (Array.isArray(inner)) return ok({ source: 'json', reasons: inner });
  const fromText = reasonsFromText(text);
  if (fromText) return ok({ source: 'message', reasons: fromText });
  return err(
    'validation',
    'no cancellation reasons found: paste the TransactionCanceledException message (with "[None, ConditionalCheckFailed]"-style reasons) or the CancellationReasons JSON array',
    { field: 'error' },
  );
}

function isAttributeValue(value: unknown): value is AttributeValueJson {
  return isRecord(value) && Object.keys(value).length === 1;
}

/** Parses a pasted request: `{"TransactItems": [...]}` (with or without a token) or the bare array. */
export function parseRequestItems(request: string): Result<TransactItemJson[]> {
  const json = tryJson(request.trim());
  const list = Array.isArray(json) ? json : isRecord(json) ? (json.TransactItems ?? json.transactItems) : undefined;
  if (!Array.isArray(list))
    return err('validation', 'the request is not JSON with TransactItems (or a JSON array of them)', { field: 'request' });
  const out: TransactItemJson[] = [];
  for (const [i, entry] of list.entries()) {
    const op = isRecord(entry) ? OPERATIONS.find((o) => o in entry) : undefined;
    const body = op && isRecord(entry) ? entry[op] : undefined;
    const target = isRecord(body) ? (body.Item ?? body.Key) : undefined;
    if (
      !op ||
      !isRecord(body) ||
      typeof body.TableName !== 'string' ||
      !isRecord(target) ||
      !Object.values(target).every(isAttributeValue)
    ) {
      return err(
        'validation',
        `TransactItems[${i}] is not a Put, Delete, Update or ConditionCheck with TableName and Item/Key in DynamoDB JSON`,
        { field: 'request' },
      );
    }
    out.push({ [op]: body } as unknown as TransactItemJson);
  }
  return ok(out);
}

/** Decodes a pasted cancellation, optionally with the request (and a convention to name rules and values). */
export function decodeCancellation(input: { error: string; request?: string; convention?: Convention }): Result<Decoded> {
  const parsed = parseReasons(input.error);
  if (!parsed.ok) return parsed;
  let items: TransactItemJson[] | undefined;
  if (input.request !== undefined && input.request.trim() !== '') {
    const req = parseRequestItems(input.request);
    if (!req.ok) return req;
    items = req.value;
    if (items.length !== parsed.value.reasons.length) {
      return err(
        'validation',
        `the request has ${items.length} actions but the error lists ${parsed.value.reasons.length} reasons: they are not from the same transaction`,
        { field: 'request' },
      );
    }
  }
  const actions = items ? inferActions(items, input.convention) : undefined;
  const reasons = explainReasons(parsed.value.reasons, items, actions, input.convention?.ownerAttribute);
  const failed = reasons.filter((r) => r.code !== 'None');
  const summary =
    failed.length === 0
      ? 'no action failed (every reason is None)'
      : failed.map((r) => `action ${r.index + 1} of ${reasons.length} (${r.code}): ${r.message}`).join('; ');
  return ok({ source: parsed.value.source, reasons, failed, summary });
}
