import { mount } from 'svelte';
import App from './shell/App.svelte';
import './ui/common/global.css';
import './ui/common/lab.css';

const target = document.getElementById('app');
if (!target) throw new Error('#app is missing from index.html');
export default mount(App, { target });
