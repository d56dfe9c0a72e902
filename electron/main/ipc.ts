/**
 * The only place main touches raw IPC: every contract method is registered with `ipcMain.handle`
 * straight from the contract (so none can be forgotten), plus subscribe/unsubscribe for streams,
 * whose events go to the subscribing window with `webContents.send`, and stream ports, whose events
 * go down a MessagePort the page hands to a Web Worker (never crossing the page's own thread).
 * Every call passes the sender check.
 */
import { ipcMain, MessageChannelMain } from 'electron';
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { IPC_CHANNELS, METHOD_NAMES, SUBSCRIPTION_ID } from '../../shared/contract/api';
import type { Result } from '../../shared/result';
import { err, ok } from '../../shared/result';
import type { BridgeLogger } from '../bridge/logger';
import type { Dispatch, SenderVerdict } from '../bridge/pipeline';
import type { StreamHub } from '../bridge/stream-hub';
import { isAppUrl } from './security';

/** Most subscriptions one window may hold; a leak in the renderer must not grow main without bound. */
const MAX_SUBSCRIPTIONS_PER_WINDOW = 200;

/** What the IPC layer needs. */
export interface IpcOptions {
  readonly dispatch: Dispatch;
  readonly hub: StreamHub;
  readonly log: BridgeLogger;
  /** True for the webContents of our own windows. */
  readonly isKnownContents: (contents: WebContents) => boolean;
}

/** Judges an IPC sender: one of our windows, main frame, app:// origin. */
export function ipcSenderVerdict(
  event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>,
  isKnownContents: (contents: WebContents) => boolean,
): SenderVerdict {
  if (!isKnownContents(event.sender)) return { trusted: false, reason: 'not a Locksmith window' };
  const frame = event.senderFrame;
  if (!frame) return { trusted: false, reason: 'sender frame is gone' };
  if (frame.parent !== null) return { trusted: false, reason: 'call from a subframe' };
  if (!isAppUrl(frame.url)) return { trusted: false, reason: `frame URL ${frame.url.slice(0, 100)} is not the app` };
  return { trusted: true, label: `window ${event.sender.id}` };
}

/** Registers every handler; returns a function removing them all (tests, shutdown). */
export function registerIpc(options: IpcOptions): () => void {
  const { dispatch, hub, log, isKnownContents } = options;
  const subscriptions = new Map<number, Map<string, () => void>>();

  for (const method of METHOD_NAMES) {
    ipcMain.handle(method, (event, args: unknown) => dispatch(method, args, 'ipc', ipcSenderVerdict(event, isKnownContents)));
  }

  // Checks a subscribe or port request and opens the hub subscription `deliver` feeds, owned by the
  // sender's window (ended with it); `opened` runs once it is registered, before the answer, and may
  // return what else ending the subscription lets go (the port's end in main).
  const open = (
    event: IpcMainInvokeEvent,
    channel: string,
    args: { readonly stream: unknown; readonly filter: unknown; readonly subscriptionId: unknown },
    deliver: (contents: WebContents) => (payload: unknown) => void,
    opened: (contents: WebContents, stop: () => void) => (() => void) | void = () => undefined,
  ): Result<{ subscribed: true }> => {
    const verdict = ipcSenderVerdict(event, isKnownContents);
    if (!verdict.trusted) {
      log.refused({ method: channel, transport: 'ipc', reason: `foreign sender: ${verdict.reason}` });
      return err('validation', 'Request refused: it does not come from the Locksmith window.');
    }
    const { subscriptionId } = args;
    if (typeof subscriptionId !== 'string' || !SUBSCRIPTION_ID.test(subscriptionId))
      return err('validation', 'Bad subscription id.', { field: 'subscriptionId' });
    const contents = event.sender;
    let mine = subscriptions.get(contents.id);
    if (!mine) {
      mine = new Map();
      subscriptions.set(contents.id, mine);
      const owned = mine;
      contents.once('destroyed', () => {
        for (const stop of [...owned.values()]) stop();
        subscriptions.delete(contents.id);
      });
    }
    if (mine.has(subscriptionId)) return err('validation', 'Subscription id already in use.', { field: 'subscriptionId' });
    if (mine.size >= MAX_SUBSCRIPTIONS_PER_WINDOW) return err('validation', 'Too many subscriptions from this window.');
    const subscribed = hub.subscribe(args.stream, args.filter, deliver(contents));
    if (!subscribed.ok) return subscribed;
    const ofWindow = mine;
    const held: { release?: () => void } = {};
    let stopped = false;
    // Once only: releasing may call it again (a closed port emits `close`), possibly after the id was reused.
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      subscribed.value();
      ofWindow.delete(subscriptionId);
      held.release?.();
    };
    mine.set(subscriptionId, stop);
    held.release = opened(contents, stop) ?? undefined;
    return ok({ subscribed: true });
  };

  ipcMain.handle(IPC_CHANNELS.subscribe, (event, stream: unknown, filter: unknown, subscriptionId: unknown) =>
    open(event, IPC_CHANNELS.subscribe, { stream, filter, subscriptionId }, (contents) => (payload) => {
      if (!contents.isDestroyed()) contents.send(IPC_CHANNELS.event, { subscriptionId, event: payload });
    }),
  );

  // The subscription writes into one end of a channel; the other end goes to the window, whose page
  // hands it to the row store's worker. Events queue in the channel until that end is read (the hub's
  // replay is written before the port leaves), and either end closing ends the subscription.
  ipcMain.handle(IPC_CHANNELS.port, (event, stream: unknown, filter: unknown, subscriptionId: unknown) => {
    const channel = new MessageChannelMain();
    const opened = open(
      event,
      IPC_CHANNELS.port,
      { stream, filter, subscriptionId },
      () => (payload) => channel.port1.postMessage(payload),
      (contents, stop) => {
        channel.port1.on('close', stop);
        channel.port1.start();
        contents.postMessage(IPC_CHANNELS.port, { portId: subscriptionId }, [channel.port2]);
        // Ended from this side (unsubscribe, the window gone): the page's end learns it too.
        return () => channel.port1.close();
      },
    );
    if (!opened.ok) channel.port1.close();
    return opened;
  });

  ipcMain.handle(IPC_CHANNELS.unsubscribe, (event, subscriptionId: unknown): Result<{ unsubscribed: boolean }> => {
    const verdict = ipcSenderVerdict(event, isKnownContents);
    if (!verdict.trusted) return err('validation', 'Request refused: it does not come from the Locksmith window.');
    const mine = subscriptions.get(event.sender.id);
    const stop = typeof subscriptionId === 'string' ? mine?.get(subscriptionId) : undefined;
    if (!stop || typeof subscriptionId !== 'string') return ok({ unsubscribed: false });
    stop();
    return ok({ unsubscribed: true });
  });

  return () => {
    for (const channel of [...METHOD_NAMES, IPC_CHANNELS.subscribe, IPC_CHANNELS.port, IPC_CHANNELS.unsubscribe])
      ipcMain.removeHandler(channel);
    for (const mine of subscriptions.values()) for (const stop of [...mine.values()]) stop();
    subscriptions.clear();
  };
}
