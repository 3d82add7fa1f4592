/** Entry point: make the page cross-origin isolated if needed, then mount the app. */
import { mount } from 'svelte';
import App from './App.svelte';
import { ensureIsolation, registerForOffline } from './lib/isolation.ts';
import { verifier } from './state/verifier.svelte.ts';
import './styles/app.css';

async function start() {
  if (await ensureIsolation()) return; // Reloading under the service worker.
  // Start fetching Monaco at once: the editor is what the first screen waits for.
  void import('./lib/monaco.ts');
  mount(App, { target: document.getElementById('app')! });
  registerForOffline(verifier.settled);
}

void start();
