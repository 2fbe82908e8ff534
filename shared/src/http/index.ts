/** What the services' HTTP apps share beyond the store: security headers, the allowed-hosts check and who can reach a process. */
export * from './allowed-hosts.js';
export * from './security-headers.js';
export * from './exposure.js';
