/**
 * `@oidc-kit/react/verify-signature`: ID-token signature verification, the one part of oidc-kit
 * that needs `jose` (an optional peer dependency). An app that does not import this entry neither
 * installs nor bundles `jose`.
 */
export { verifyIdTokenSignature } from './verifyIdTokenSignature';
