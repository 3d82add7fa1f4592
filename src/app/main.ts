/** Entry point: make the page cross-origin isolated if needed, then mount the app. */
import { mount } from 'svelte';
import App from './App.svelte';
import { ensureIsolation, registerForOffline } from './lib/isolation.ts';
import './styles/app.css';

async function start() {
  if (await ensureIsolation()) return; // Reloading under the service worker.
  mount(App, { target: document.getElementById('app')! });
  registerForOffline();
}

void start();
