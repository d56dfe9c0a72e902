/** Subscriptions the renderer can open: each returns an unsubscribe function on the client side. */
import { z } from 'zod';
import type { AuditEvent, MfaPromptEvent, SandboxView } from './views';
import type { RepairStatusView } from './repair-views';
import { opaqueIdSchema } from './arg-limits';
import { stream } from './spec';
import type { LiveWatchEvent } from '../watch/watch-events';

/** Every stream, by dot-name, with the subscriber's filter schema and the event type. */
export const streams = {
  'audit.events': stream<AuditEvent>()(z.strictObject({ runId: opaqueIdSchema }), 'Deltas, progress and done of one audit run.'),
  'sandbox.status': stream<SandboxView>()(z.strictObject({}), 'Sandbox state changes.'),
  'watch.events': stream<LiveWatchEvent>()(
    z.strictObject({ watchId: opaqueIdSchema }),
    'Problems appearing and resolving as writes happen, with their cause; the watch status.',
  ),
  'repair.events': stream<RepairStatusView>()(
    z.strictObject({ planId: opaqueIdSchema }),
    'Progress and per-fix outcome of one repair execution as it goes, ending in its last phase.',
  ),
  'mfa.prompts': stream<MfaPromptEvent>()(z.strictObject({}), 'MFA code requests from credential providers.'),
} as const;
