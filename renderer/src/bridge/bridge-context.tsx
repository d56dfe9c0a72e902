/** Makes the chosen bridge available to hooks (features never reach for `window.locksmith` themselves). */
import { createContext, useContext, type ReactNode } from 'react';
import type { LocksmithBridge } from '../../../shared/contract';

const BridgeContext = createContext<LocksmithBridge | null>(null);

/** Provides `bridge` to everything below it. */
export function BridgeProvider({ bridge, children }: { bridge: LocksmithBridge; children: ReactNode }) {
  return <BridgeContext.Provider value={bridge}>{children}</BridgeContext.Provider>;
}

/** The bridge; throws when used outside a BridgeProvider (a programming error, not a user one). */
export function useBridge(): LocksmithBridge {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge outside BridgeProvider');
  return bridge;
}
