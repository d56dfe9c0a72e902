/**
 * DynamoDB's JSON protocol with a leaner decode of successful Scan pages. The body of a Scan page
 * already is the SDK's output shape: `Items` is a list of maps of AttributeValues written exactly as
 * the SDK returns them (`{"S":"x"}`, `{"N":"1"}`…), except that B and BS hold base64 text where the
 * SDK gives bytes. The SDK parses the body, then walks every attribute of every item through its
 * schema (a normalized-schema lookup and four checks per attribute: a large share of an audit's
 * CPU). Here the items are walked once, directly, converting only B and BS; the rest of the page
 * (counts, LastEvaluatedKey, ConsumedCapacity, metadata) and every other operation and every error
 * response go through the SDK's own code, so retries, throttling and errors classify as before.
 */
import { AwsJson1_0Protocol } from '@aws-sdk/core/protocols';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { collectBody } from '@smithy/core/protocols';
import { fromBase64 } from '@smithy/core/serde';
import type { HandlerExecutionContext, HttpResponse, MetadataBearer, OperationSchema, SerdeFunctions } from '@smithy/types';

type Decode = (text: string) => Uint8Array;
type RawValue = Record<string, unknown>;

/** Decodes one parsed AttributeValue in place as the SDK's DynamoDB codec does: B and BS become bytes, L and M are walked. */
function decodeValue(value: RawValue, decode: Decode): void {
  if (typeof value.B === 'string') value.B = decode(value.B);
  const { BS, L, M } = value;
  if (Array.isArray(BS)) value.BS = BS.map((text: string) => decode(text));
  if (Array.isArray(L)) for (const member of L as RawValue[]) decodeValue(member, decode);
  // In place, never reassigned: a map key `__proto__` (an own property after JSON.parse) stays a plain key.
  if (M !== null && typeof M === 'object') for (const key of Object.keys(M)) decodeValue((M as Record<string, RawValue>)[key]!, decode);
}

/** Decodes a page's parsed `Items` in place (see decodeValue) and returns them typed as the SDK would. */
export function decodeItems(items: Record<string, RawValue>[], decode: Decode = fromBase64): Record<string, AttributeValue>[] {
  for (const item of items) for (const key of Object.keys(item)) decodeValue(item[key]!, decode);
  return items as unknown as Record<string, AttributeValue>[];
}

/** True for a parsed JSON object (not an array, not null). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The SDK's AwsJson1_0Protocol, but a successful Scan page's items are decoded directly (see the
 * file comment). Given to the client as `protocol` (a constructor): the SDK passes it its own
 * protocol settings, exactly as it does for the default protocol.
 */
export class LeanScanProtocol extends AwsJson1_0Protocol {
  /** Decodes one response: the lean path for a successful Scan page, the SDK's for everything else. */
  override async deserializeResponse<Output extends MetadataBearer>(
    operationSchema: OperationSchema,
    context: HandlerExecutionContext & SerdeFunctions,
    response: HttpResponse,
  ): Promise<Output> {
    if (operationSchema.name !== 'Scan' || response.statusCode >= 300) return super.deserializeResponse(operationSchema, context, response);
    const bytes = await collectBody(response.body, context);
    let page: unknown;
    try {
      page =
        bytes.byteLength === 0 ? undefined : JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    } catch {
      page = undefined;
    }
    // Anything but a page with a list of items (an empty or corrupt body): the SDK's path, with the SDK's own errors.
    if (!isRecord(page) || !Array.isArray(page.Items)) {
      response.body = bytes;
      return super.deserializeResponse(operationSchema, context, response);
    }
    const items = page.Items as Record<string, RawValue>[];
    // The rest of the page is a few hundred bytes: the SDK decodes it (and the metadata) as always.
    // `Items: []` keeps the output's keys in the SDK's order.
    response.body = Buffer.from(JSON.stringify({ ...page, Items: [] }), 'utf8');
    const output = await super.deserializeResponse<Output & { Items?: unknown }>(operationSchema, context, response);
    output.Items = decodeItems(items, context.base64Decoder);
    return output;
  }
}
