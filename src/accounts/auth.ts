export interface AuthContext {
  accountId: string;
  keyId: string;
}
