import { register } from 'node:module';

register('./sandbox-resolve.mjs', import.meta.url);
