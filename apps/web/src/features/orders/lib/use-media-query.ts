/** Moved to lib/ (the admin tables' cards use it too). */
export { useMediaQuery, DESKTOP_QUERY } from '@/lib/use-media-query';
