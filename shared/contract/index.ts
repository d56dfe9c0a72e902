/** The bridge contract: methods, streams, derived types, view models and the browser-mode client. */
export * from './api';
export * from './arg-limits';
export * from './methods';
export * from './streams';
export * from './views';
export * from './tx-views';
export * from './audit-wire';
export * from './repair-views';
export * from './tx-schema';
export * from './convention-schema';
export * from './startup';
export type { MethodSpec, StreamSpec } from './spec';
export * from './http-client';
export * from './transport';
