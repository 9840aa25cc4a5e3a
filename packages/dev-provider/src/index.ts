export { startDevProvider, devProviderDefaults } from './startDevProvider.js';
export type { DevProvider, DevProviderOptions } from './startDevProvider.js';
export { defaultUsersFile, loadUsersFile, parseUsers } from './loadUsersFile.js';
export type { DevUser, ResolvedDevUser } from './loadUsersFile.js';
export { loadClientsFile, parseClients, referenceAppClient } from './loadClientsFile.js';
export type { DevClient } from './loadClientsFile.js';
export { DevProviderConfigError } from './DevProviderConfigError.js';
export { PortInUseError } from './PortInUseError.js';
