export { returnToFromRequest } from './returnToFromRequest';
