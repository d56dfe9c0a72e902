/** The domain's words, below the wire: the contract, the services and the renderer all import them from here. */
export * from './connection';
export * from './json';
export * from './lookup';
export * from './outcome';
