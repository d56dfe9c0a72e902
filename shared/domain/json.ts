/** Plain JSON, the shape items, requests and logged outcomes take wherever they are held or sent. */

/** Any JSON value (DynamoDB JSON, plain items, requests) as it crosses the bridge. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };
