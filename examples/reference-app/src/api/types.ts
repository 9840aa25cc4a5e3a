/** What `GET /me` answers: the caller, as the API read them from the access token. */
export interface Me {
  sub: string;
  name: string | null;
  roles: string[];
  scope: string;
}

/** What `GET /admin/stats` answers (admins only). */
export interface AdminStats {
  distinctUsers: number;
  authenticatedRequests: number;
  uptimeSeconds: number;
}
