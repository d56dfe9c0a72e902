/** Entry point: pick the bridge, then render the app (or say why it cannot start). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BridgeProvider } from './bridge/bridge-context';
import { selectBridge } from './bridge/select-bridge';
import { App } from './app/app';
import './styles/theme.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/inspector.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
const choice = selectBridge();

createRoot(root).render(
  <StrictMode>
    {choice.ok ? (
      <BridgeProvider bridge={choice.bridge}>
        <App startup={choice.startup} />
      </BridgeProvider>
    ) : (
      <main className="empty" data-testid="no-bridge">
        <h1>Locksmith cannot start</h1>
        <p role="alert">{choice.message}</p>
        <p>
          Fix: <code>{choice.fix}</code>
        </p>
      </main>
    )}
  </StrictMode>,
);
if (!choice.ok) document.body.dataset.appState = 'error';
