/** The sandbox service's public API (used by the CLI `locksmith sandbox`, the app, and the test harness). */
export {
  startSandbox,
  sandboxClient,
  newSandboxCredentials,
  type SandboxCredentials,
  type SandboxHandle,
  type SandboxOptions,
  type SandboxStatus,
} from './sandbox';
export {
  startDynamoDbLocal,
  SANDBOX_CREDENTIALS,
  SANDBOX_REGION,
  type DynamoDbLocalHandle,
  type DynamoDbLocalOptions,
  type JvmExit,
} from './dynamodb-local';
export { findJava, JAVA_INSTALL_HINT, MIN_JAVA_MAJOR, type JavaRuntime } from './java';
export { seedDemoData, DEMO_TABLES, type DemoTableSpec, type SeedOptions, type SeedSummary } from './demo-data';
export * from './expected-problems';
