/**
 * User-name evidence. A name is learned only from a home directory path
 * (`/home/NAME`, `/Users/NAME`, `C:\Users\NAME`, also the home inside an
 * announced workspace_root or cwd), and never when it is a common word:
 * `/home/dev/x` still becomes `~/x`, but "did you know the dev server is up?"
 * stays as it is. Bare occurrences of a learned name become `<user>`.
 */

/**
 * Home-directory names that are not a person's, and words too common to
 * replace wherever they occur: service accounts, CI users, roles, and short
 * English words. Compared in lower case.
 */
const COMMON_WORDS: ReadonlySet<string> = new Set(
  (
    // shared homes and service accounts
    'shared public default guest all users everyone nobody root admin administrator adm user users ' +
    'dev developer devel test tester testing qa ci cd build builder runner worker agent bot app apps ' +
    'api web www www-data http https nginx apache httpd node nodejs npm yarn pnpm deno bun python ' +
    'ruby go golang java rust docker podman container vagrant ubuntu debian fedora centos alpine arch ' +
    'ec2-user azureuser cloud cloudshell codespace codespaces vscode gitpod git github gitlab jenkins ' +
    'circleci travis buildkite runneradmin sandbox server service services system sys daemon operator ' +
    'ops devops deploy deployer prod production staging stage local localhost home src source code ' +
    'project projects work workspace workspaces repo repos data db database postgres mysql redis mongo ' +
    'tmp temp cache opt bin lib etc var usr mnt media srv lost+found demo example sample student ' +
    'owner main master me you we us our your my mine they them he she it its his her him who ' +
    // short English words that also make plausible directory names
    'a an the and or not no yes ok is are was be been do does did can will may new old top one two ' +
    'out in on at by to of for from up down off over into with any some this that these those here ' +
    'there then than when what where why how all each few more most other such only own same so too ' +
    'very just now get set run go let make use see know day time way man men kid kids mom dad team ' +
    'office lab labs school class info mail email support help hello world foo bar baz qux'
  ).split(/\s+/),
);

/** Whether a home-directory name may be taken as a person's user name. */
export function isUserName(name: string): boolean {
  const key = name.toLowerCase();
  if (key.length < 3 || COMMON_WORDS.has(key)) return false;
  // Pure digits or a single repeated character are not names either.
  return !/^\d+$/.test(key) && !/^(.)\1*$/.test(key);
}

/** Whether a home-directory name is shortened to `~` but never collected (not a person's). */
export function isSharedHome(name: string): boolean {
  const key = name.toLowerCase();
  return key === 'shared' || key === 'public' || key === 'default' || key === 'default user' || key === 'all users' || key === 'guest';
}
