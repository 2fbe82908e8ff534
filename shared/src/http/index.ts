/** What the services' HTTP apps share beyond the store: security headers and the allowed-hosts check. */
export * from './allowed-hosts.js';
export * from './security-headers.js';
