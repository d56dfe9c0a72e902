/**
 * The one handler pipeline, shared by Electron IPC and browser-mode HTTP:
 * sender check → method lookup → schema parse → handler → Result. Nothing throws across it.
 */
import type { z } from 'zod';
import type { MethodName, MethodResult, ParsedArgs } from '../../shared/contract/api';
import { isMethodName } from '../../shared/contract/api';
import { methods } from '../../shared/contract/methods';
import { formatFieldPath } from '../../shared/field-path';
import type { Result } from '../../shared/result';
import { err } from '../../shared/result';
import { scrubKnownSecrets } from '../services/dynamo/secrets';
import type { BridgeLogger } from './logger';

/** Who is calling, as judged by the transport (IPC: window + frame URL; HTTP: token, Host, Origin). */
export type SenderVerdict = { readonly trusted: true; readonly label: string } | { readonly trusted: false; readonly reason: string };

/** What a handler knows about its caller. */
export interface HandlerContext {
  readonly transport: 'ipc' | 'http';
  readonly sender: string;
}

/** The handler of one method: parsed arguments in, Result out. */
export type Handler<M extends MethodName> = (args: ParsedArgs<M>, context: HandlerContext) => Promise<Result<MethodResult<M>>>;

/** One handler per contract method; the mapped type makes a forgotten method a compile error. */
export type HandlerTable = { readonly [M in MethodName]: Handler<M> };

/** Dispatches one call; resolves to a Result for every input, however hostile. */
export type Dispatch = (
  method: unknown,
  args: unknown,
  transport: HandlerContext['transport'],
  sender: SenderVerdict,
) => Promise<Result<unknown>>;

/** Turns a zod failure into a validation error naming the first bad field. */
export function validationError(error: z.ZodError): Result<never> {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? formatFieldPath(issue.path) : undefined;
  const message = issue ? `${field ? `${field}: ` : ''}${issue.message}` : 'invalid arguments';
  return err('validation', message, field ? { field } : {});
}

/** Builds the dispatcher over a handler table. */
export function createDispatcher(handlers: HandlerTable, log: BridgeLogger): Dispatch {
  return async (method, args, transport, sender) => {
    const name = typeof method === 'string' ? method.slice(0, 100) : typeof method;
    if (!sender.trusted) {
      log.refused({ method: name, transport, reason: `foreign sender: ${sender.reason}` });
      return err('validation', 'Request refused: it does not come from the Locksmith window.');
    }
    if (!isMethodName(method)) {
      log.refused({ method: name, transport, reason: 'unknown method' });
      return err('validation', `Unknown method ${JSON.stringify(name)}.`);
    }
    const parsed = methods[method].args.safeParse(args);
    if (!parsed.success) {
      // Arguments are never logged: they may contain an MFA code or a confirmation.
      log.refused({ method, transport, reason: 'invalid arguments' });
      return validationError(parsed.error);
    }
    const handler = handlers[method] as (args: unknown, context: HandlerContext) => Promise<Result<unknown>>;
    try {
      const result = await handler(parsed.data, { transport, sender: sender.label });
      // The last gate before the renderer: no secret the process knows crosses it, whatever path produced the result.
      return isResultShape(result)
        ? scrubKnownSecrets(result)
        : internal(log, method, transport, new Error('handler returned a non-Result'));
    } catch (cause) {
      return internal(log, method, transport, cause);
    }
  };
}

function isResultShape(value: unknown): value is Result<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

function internal(log: BridgeLogger, method: string, transport: string, cause: unknown): Result<never> {
  log.failed({ method, transport, cause });
  return err('internal', `Locksmith hit an unexpected error in ${method}. Details are in the log.`);
}
