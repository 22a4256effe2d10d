/**
 * Row types of the identity, tenancy and admin tables (migrations 20261121000100, …000200, …000500,
 * 2026112700040001, 2026113000010001), declared on knex's `Tables` so `db('users')` yields `UserRow`s and a
 * wrong column name is a type error. Other areas declare theirs beside this file (interface merging).
 *
 * Values as the pg driver returns them here (db/knex.ts): uuid, text, citext and inet as strings; integer and
 * bigint as numbers (the INT8 parser); numeric as strings (exact money and coordinates); timestamptz as `Date`;
 * jsonb as the parsed value; integer[] as `number[]`.
 */
import type { Knex } from 'knex';
import type {} from 'knex/types/tables';

/** `users`: a person who signs in (ARCHITECTURE §3). */
export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  is_active: boolean;
  last_login_at: Date | null;
  /** lower(display name, else email): the users list's name key, set by triggers (never written by the app). */
  sort_name?: string;
  /** Holds at least one grant (kept by a trigger on role_grants; never written by the app). */
  has_grant?: boolean;
  /** The phone one signs in with, E.164, unique among active users; set from the profile (2026120100030001). */
  phone: string | null;
  created_at: Date;
  updated_at: Date;
}

/** `user_profiles`: names, phone and the last outlet/store picked (one per user). */
export interface UserProfileRow {
  user_id: string;
  first_name: string | null;
  last_name: string | null;
  full_name: string | null;
  /** The contact phone, E.164 (CHECK user_profiles_phone_e164). */
  phone: string | null;
  last_selected_outlet_id: number | null;
  last_selected_store_id: number | null;
  created_at: Date;
  updated_at: Date;
}

/** `auth_sessions`: one refresh-token session of a family (rotation, reuse detection). */
export interface AuthSessionRow {
  id: string;
  user_id: string;
  family_id: string;
  token_hash: string;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
  rotated_at: Date | null;
  replaced_by: string | null;
  revoked_at: Date | null;
  revoked_reason: string | null;
  user_agent: string | null;
  ip: string | null;
}

/** `password_reset_tokens`: a reset link's hashed token. */
export interface PasswordResetTokenRow {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  requested_ip: string | null;
  created_at: Date;
}

/** The place a role is granted at (ARCHITECTURE §11). */
export type ScopeType = 'global' | 'board' | 'store' | 'outlet';

/** `roles`: a named set of permissions, granted at one scope type. */
export interface RoleRow {
  id: number;
  code: string;
  role_name: string | null;
  description: string | null;
  role_level: number;
  scope_type: ScopeType;
  created_at: Date;
  updated_at: Date;
}

/** `permissions`: a `bcc.*` permission code. */
export interface PermissionRow {
  id: number;
  code: string;
  description: string | null;
}

/** `role_permissions`: role × permission. */
export interface RolePermissionRow {
  role_id: number;
  permission_id: number;
}

/** `role_grants`: a role held at a place (user × role × scope); `scope_id` is generated. */
export interface RoleGrantRow {
  id: number;
  user_id: string;
  role_id: number;
  scope_type: ScopeType;
  board_id: number | null;
  store_id: number | null;
  outlet_id: number | null;
  scope_id: number | null;
  granted_by: string | null;
  granted_at: Date;
}

/** `boards`: a liquor board owning stores. */
export interface BoardRow {
  id: number;
  board_number: number;
  name: string;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

/** `stores`: keyed by the warehouse system's store number; money and coordinates as numeric strings. */
export interface StoreRow {
  id: number;
  warehouse_code: string;
  name: string;
  board_id: number;
  address: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  phone: string | null;
  active: boolean;
  is_warehouse: boolean;
  delivery_enabled: boolean;
  delivery_charge: string;
  /** Split cases (issue 27): any | full_cases | split_fee, and the fee per bottle of an incomplete case. */
  split_case_policy: 'any' | 'full_cases' | 'split_fee';
  split_case_fee: string;
  orderconf_ccemails: string | null;
  latitude: string | null;
  longitude: string | null;
  created_at: Date;
  updated_at: Date;
}

/** `outlets`: a licensee that buys from stores. */
export interface OutletRow {
  id: number;
  outlet_code: string;
  name: string;
  board_id: number | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  phone: string | null;
  email: string | null;
  active: boolean;
  is_admin_outlet: boolean;
  default_store_id: number | null;
  created_at: Date;
  updated_at: Date;
}

/** `store_outlets`: the stores an outlet orders from. */
export interface StoreOutletRow {
  store_id: number;
  outlet_id: number;
}

/** `user_outlets`: outlet memberships (kept in step with outlet grants), with the last store picked there. */
export interface UserOutletRow {
  user_id: string;
  outlet_id: number;
  last_selected_store_id: number | null;
  created_at: Date;
}

/** `outlet_requests`: a person asking to join an outlet (spec: invitations and requests). */
export interface OutletRequestRow {
  id: number;
  user_id: string;
  outlet_id: number;
  status: 'pending' | 'approved' | 'rejected';
  created_at: Date;
  decided_at: Date | null;
  decided_by: string | null;
  decision_reason: string | null;
}

/** `invitations`: an invitation by email with the roles and the places they are granted at. */
export interface InvitationRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  role_ids: number[];
  outlet_ids: number[];
  store_ids: number[];
  board_ids: number[];
  invited_by: string | null;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
  token_hash: string | null;
  revoked_at: Date | null;
  revoked_by: string | null;
  revoked_reason: 'revoked' | 'replaced' | 'resent' | null;
  accepted_user_id: string | null;
  sent_at: Date;
  updated_at: Date;
}

/** `audit_log`: one audited action; `details` is jsonb. */
export interface AuditLogRow {
  id: number;
  occurred_at: Date;
  user_id: string | null;
  actor_email: string | null;
  action: string;
  entity_type: string | null;
  entity_id: string | null;
  ip: string | null;
  details: Record<string, unknown> | null;
}

/** An insert or update of `audit_log`: any column (or a raw expression), `details` as JSON text. */
export type AuditLogWrite = { [K in keyof AuditLogRow]?: (K extends 'details' ? string | null : AuditLogRow[K]) | Knex.Raw };

/** `payment_credentials`: a store's encrypted payment-provider credentials (envelope encryption). */
export interface PaymentCredentialRow {
  id: number;
  /** 'BCC' | 'IMS' (CHECK constraint). */
  app_code: string;
  /** 'test' | 'prod' (CHECK constraint). */
  environment: string;
  store_id: number;
  /** 'Monetra' | 'Stripe' | 'PayPal' (CHECK constraint). */
  credential_type: string;
  dek_secret_name: string;
  encrypted_payload: string;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

declare module 'knex/types/tables' {
  interface Tables {
    users: UserRow;
    user_profiles: UserProfileRow;
    auth_sessions: AuthSessionRow;
    password_reset_tokens: PasswordResetTokenRow;
    roles: RoleRow;
    permissions: PermissionRow;
    role_permissions: RolePermissionRow;
    role_grants: RoleGrantRow;
    boards: BoardRow;
    stores: StoreRow;
    outlets: OutletRow;
    store_outlets: StoreOutletRow;
    user_outlets: UserOutletRow;
    outlet_requests: OutletRequestRow;
    invitations: InvitationRow;
    // details are written as JSON text (JSON.stringify) and read back parsed.
    audit_log: Knex.CompositeTableType<AuditLogRow, AuditLogWrite, AuditLogWrite>;
    payment_credentials: PaymentCredentialRow;
  }
}
