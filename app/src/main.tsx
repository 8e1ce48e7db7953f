import './styles.css';
import { render } from 'preact';
import { setTabSession, currentSession } from './api';
import { App } from './app';

// A session kept by this tab (a reload) is renewed on schedule again.
setTabSession(currentSession());
const root = document.getElementById('app');
if (root) render(<App />, root);
