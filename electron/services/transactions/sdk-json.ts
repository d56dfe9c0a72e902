/** Converting between our DynamoDB JSON (B as base64 text) and the SDK's types (B as bytes). */
import type { AttributeValue, TransactWriteItem, TransactWriteItemsCommandInput } from '@aws-sdk/client-dynamodb';
import { base64Decode, base64Encode } from '../../../shared/plain-key';
import type { AttributeValueJson, ItemJson, TransactWriteInputJson } from '../../../shared/transactions/types';

function toSdkValue(value: AttributeValueJson): AttributeValue {
  if ('B' in value) return { B: base64Decode(value.B) ?? new Uint8Array() };
  return value as AttributeValue;
}

function toSdkItem(item: ItemJson | undefined): Record<string, AttributeValue> | undefined {
  if (item === undefined) return undefined;
  return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, toSdkValue(v)]));
}

/** The SDK input for exactly this DynamoDB JSON request (bytes for B values, nothing else changed). */
export function toSdkInput(input: TransactWriteInputJson): TransactWriteItemsCommandInput {
  const items: TransactWriteItem[] = input.TransactItems.map((action) => {
    const [op, body] = Object.entries(action)[0] as [keyof TransactWriteItem, Record<string, unknown>];
    const converted: Record<string, unknown> = { ...body };
    for (const field of ['Item', 'Key', 'ExpressionAttributeValues'] as const) {
      if (body[field] !== undefined) converted[field] = toSdkItem(body[field] as ItemJson);
    }
    return { [op]: converted } as TransactWriteItem;
  });
  return { TransactItems: items, ClientRequestToken: input.ClientRequestToken };
}

/** An SDK item as DynamoDB JSON; scalar attributes only (lists, maps and sets are left out of messages). */
export function fromSdkItem(item: Record<string, AttributeValue> | undefined): ItemJson | undefined {
  if (item === undefined) return undefined;
  const out: Record<string, AttributeValueJson> = {};
  for (const [name, value] of Object.entries(item)) {
    if (value.S !== undefined) out[name] = { S: value.S };
    else if (value.N !== undefined) out[name] = { N: value.N };
    else if (value.B !== undefined) out[name] = { B: base64Encode(value.B) };
    else if (value.BOOL !== undefined) out[name] = { BOOL: value.BOOL };
    else if (value.NULL !== undefined) out[name] = { NULL: true };
  }
  return out;
}
