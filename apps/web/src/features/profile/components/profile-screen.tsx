import { useEffect, useState, type MouseEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { BadgeCheck, Building2, KeyRound, UserRound } from 'lucide-react';
import { PageSpinner } from '@/components/ui/feedback';
import { cn } from '@/lib/cn';
import { useSession } from '@/lib/session';
import { ChangePasswordForm } from './change-password-form';
import { MyOutlets } from './my-outlets';
import { MyRoles } from './my-roles';
import { ProfileInfoForm } from './profile-info-form';
import { SectionCard } from './section-card';

/** The four anchors of Edit Profile, in order (spec 000 §2). */
export const PROFILE_SECTIONS = [
  { id: 'profile-info', label: 'Profile Info' },
  { id: 'password', label: 'Password' },
  { id: 'my-outlets', label: 'My Outlets' },
  { id: 'my-roles', label: 'My Roles' },
] as const;

function useActiveSection(): [string, (id: string) => void] {
  const [active, setActive] = useState<string>(PROFILE_SECTIONS[0].id);
  useEffect(() => {
    if (typeof IntersectionObserver === 'undefined') return;
    const obs = new IntersectionObserver(
      (entries) => {
        const top = entries.filter((e) => e.isIntersecting).sort((a, b) => a.boundingClientRect.top - b.boundingClientRect.top)[0];
        if (top) setActive(top.target.id);
      },
      { rootMargin: '-30% 0px -60% 0px' },
    );
    PROFILE_SECTIONS.forEach((s) => {
      const el = document.getElementById(s.id);
      if (el) obs.observe(el);
    });
    return () => obs.disconnect();
  }, []);
  return [active, setActive];
}

/**
 * Edit Profile (/profile, spec 000 §2): a sticky in-page navigation (Profile Info, Password, My Outlets,
 * My Roles) beside the four sections. Following an anchor scrolls smoothly and moves focus to the heading.
 */
export function ProfileScreen() {
  const { me, reload } = useSession();
  const { hash } = useLocation();
  const [active, setActive] = useActiveSection();

  useEffect(() => {
    const id = hash.replace(/^#/, '');
    if (me && PROFILE_SECTIONS.some((s) => s.id === id)) document.getElementById(id)?.scrollIntoView?.();
  }, [hash, me]);

  if (!me) return <PageSpinner />;

  const go = (e: MouseEvent<HTMLAnchorElement>, id: string) => {
    const el = document.getElementById(id);
    if (!el) return;
    e.preventDefault();
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    el.scrollIntoView?.({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
    document.getElementById(`${id}-title`)?.focus({ preventScroll: true });
    window.history.replaceState(window.history.state, '', `#${id}`);
    setActive(id);
  };

  return (
    <div className="mx-auto max-w-5xl px-4 pb-16 pt-6 sm:px-6 lg:pt-10">
      <header className="mb-4 lg:mb-8">
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Edit Profile</h1>
        <p className="mt-1 text-sm text-stone-600">Manage your personal details, password, outlets and roles.</p>
      </header>
      <div className="lg:grid lg:grid-cols-[11rem_minmax(0,1fr)] lg:gap-10">
        <SectionNav active={active} onGo={go} />
        <div className="space-y-6">
          <SectionCard
            id="profile-info"
            title="Profile Info"
            description="Your name and contact details."
            icon={<UserRound className="h-5 w-5" />}
          >
            <ProfileInfoForm profile={me.profile} onSaved={reload} />
          </SectionCard>
          <SectionCard
            id="password"
            title="Password"
            description="Change the password you sign in with."
            icon={<KeyRound className="h-5 w-5" />}
          >
            <ChangePasswordForm />
          </SectionCard>
          <SectionCard
            id="my-outlets"
            title="My Outlets"
            description="The outlets you order for and the stores that serve them."
            icon={<Building2 className="h-5 w-5" />}
          >
            <MyOutlets />
          </SectionCard>
          <SectionCard
            id="my-roles"
            title="My Roles"
            description="What you are allowed to do in the portal."
            icon={<BadgeCheck className="h-5 w-5" />}
          >
            <MyRoles roles={me.roles} />
          </SectionCard>
        </div>
      </div>
    </div>
  );
}

/** The sticky in-page navigation: the four sections, the one in view marked aria-current="location". */
function SectionNav({ active, onGo }: { active: string; onGo: (e: MouseEvent<HTMLAnchorElement>, id: string) => void }) {
  return (
    <nav
      aria-label="Profile sections"
      className="sticky top-16 z-30 -mx-4 mb-4 border-b border-stone-200 bg-stone-50 px-4 sm:-mx-6 sm:px-6 lg:top-24 lg:mx-0 lg:mb-0 lg:self-start lg:border-0 lg:bg-transparent lg:p-0"
    >
      <ul className="-mb-px flex overflow-x-auto lg:mb-0 lg:flex-col lg:gap-1 lg:overflow-visible">
        {PROFILE_SECTIONS.map((s) => {
          const current = active === s.id;
          return (
            <li key={s.id} className="flex-1 lg:flex-none">
              <a
                href={`#${s.id}`}
                onClick={(e) => onGo(e, s.id)}
                aria-current={current ? 'location' : undefined}
                className={cn(
                  'block whitespace-nowrap border-b-2 px-1.5 py-3 text-center text-sm font-medium transition-colors motion-reduce:transition-none sm:px-3',
                  'lg:rounded-md lg:border-b-0 lg:border-l-2 lg:py-2 lg:text-left',
                  current
                    ? 'border-brand-700 text-brand-800 lg:bg-brand-50'
                    : 'border-transparent text-stone-600 hover:text-stone-900 lg:hover:bg-stone-100',
                )}
              >
                {s.label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
