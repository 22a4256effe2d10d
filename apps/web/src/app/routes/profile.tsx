import { ProfileScreen } from '@/features/profile/components/profile-screen';

/** /profile: Edit Profile (spec 000 §2), signed-in users only (guarded in the router). */
export function ProfileRoute() {
  return <ProfileScreen />;
}
