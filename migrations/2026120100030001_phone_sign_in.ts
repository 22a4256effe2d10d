import type { Knex } from 'knex';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** E.164 as stored: "+" then up to 15 digits (ITU-T E.164). */
const E164 = `'^\\+[1-9][0-9]{6,14}$'`;

/** This migration's own normaliser (frozen here: contracts' normalizePhone may evolve): E.164 or null. */
function toE164(text: string): string | null {
  const parsed = parsePhoneNumberFromString(text.trim(), 'US');
  return parsed && parsed.isPossible() && /^\+[1-9][0-9]{6,14}$/.test(parsed.number) ? parsed.number : null;
}

/**
 * Phone sign-in (issue 26 §7, spec 000 §5): `user_profiles.phone` (the contact phone the profile shows) is
 * stored in E.164 — existing values are normalised (national forms read as US; text that is no phone number
 * becomes null) — and `users.phone` is the phone one signs in with, unique among active users (partial unique
 * index `users_phone_active_key`). A trigger copies a profile's phone to `users.phone` whenever it is not
 * already another active account's sign-in phone (then the account signs in by email only; the API refuses
 * such a duplicate on profile edits with 409 phone_taken before it gets here). Reactivating an account whose
 * sign-in phone another active account took meanwhile clears it (trigger on users), so the index holds.
 */
export async function up(knex: Knex): Promise<void> {
  const rows: { user_id: string; phone: string }[] = await knex('user_profiles').whereNotNull('phone').select('user_id', 'phone');
  for (const r of rows) {
    const e164 = toE164(r.phone);
    if (e164 !== r.phone) await knex('user_profiles').where({ user_id: r.user_id }).update({ phone: e164 });
  }
  await knex.raw(`
    ALTER TABLE user_profiles ADD CONSTRAINT user_profiles_phone_e164 CHECK (phone ~ ${E164});
    ALTER TABLE users ADD COLUMN phone text CONSTRAINT users_phone_e164 CHECK (phone ~ ${E164});
    UPDATE users u SET phone = first.phone FROM (
      SELECT DISTINCT ON (p.phone) p.phone, u2.id
        FROM user_profiles p JOIN users u2 ON u2.id = p.user_id
       WHERE p.phone IS NOT NULL AND u2.is_active
       ORDER BY p.phone, u2.created_at, u2.id
    ) first WHERE u.id = first.id;
    UPDATE users u SET phone = p.phone FROM user_profiles p
     WHERE p.user_id = u.id AND p.phone IS NOT NULL AND NOT u.is_active;
    CREATE UNIQUE INDEX users_phone_active_key ON users (phone) WHERE is_active AND phone IS NOT NULL;
    CREATE INDEX users_phone_idx ON users (phone) WHERE phone IS NOT NULL;

    CREATE FUNCTION user_profiles_sync_sign_in_phone() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE users u SET phone = NEW.phone
       WHERE u.id = NEW.user_id AND u.phone IS DISTINCT FROM NEW.phone
         AND (NEW.phone IS NULL OR NOT u.is_active OR NOT EXISTS (
           SELECT 1 FROM users o WHERE o.phone = NEW.phone AND o.is_active AND o.id <> NEW.user_id));
      RETURN NULL;
    END $$;
    CREATE TRIGGER user_profiles_sign_in_phone AFTER INSERT OR UPDATE OF phone ON user_profiles
      FOR EACH ROW EXECUTE FUNCTION user_profiles_sync_sign_in_phone();

    CREATE FUNCTION users_release_taken_phone() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.is_active AND NOT OLD.is_active AND NEW.phone IS NOT NULL AND EXISTS (
        SELECT 1 FROM users o WHERE o.phone = NEW.phone AND o.is_active AND o.id <> NEW.id) THEN
        NEW.phone := NULL;
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER users_release_taken_phone BEFORE UPDATE OF is_active ON users
      FOR EACH ROW EXECUTE FUNCTION users_release_taken_phone();
  `);
}

/** Drops the sign-in phone; profile phones stay in E.164 (the national text they had is not kept). */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS users_release_taken_phone ON users;
    DROP FUNCTION IF EXISTS users_release_taken_phone();
    DROP TRIGGER IF EXISTS user_profiles_sign_in_phone ON user_profiles;
    DROP FUNCTION IF EXISTS user_profiles_sync_sign_in_phone();
    DROP INDEX IF EXISTS users_phone_idx;
    DROP INDEX IF EXISTS users_phone_active_key;
    ALTER TABLE users DROP COLUMN IF EXISTS phone;
    ALTER TABLE user_profiles DROP CONSTRAINT IF EXISTS user_profiles_phone_e164;
  `);
}
