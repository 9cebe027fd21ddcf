// What the real Bandit asks past the levels the practice range shares with it (21 → 33).
// Paraphrased from overthewire.org/wargames/bandit; levels 0-20 use practice/catalogue.ts.
export const BANDIT_EXTRA_GOALS: Readonly<Record<number, string>> = {
  21: 'A program runs automatically at regular intervals from cron. Look in /etc/cron.d/ for the configuration and see what command is being executed.',
  22: 'A program runs automatically from cron. Look in /etc/cron.d/ and read the script it runs; it writes the password to a file whose name it computes.',
  23: 'A program runs automatically from cron and executes scripts placed in a directory. Write your own script that copies the password somewhere you can read it.',
  24: 'A daemon on port 30002 gives the password if given the password for bandit24 and a secret 4-digit pincode. Brute-force the pincode.',
  25: "Logging in to bandit26 from bandit25 should be easy, but bandit26's shell is not /bin/bash. Find out what it is and how to break out of it.",
  26: 'You got a shell as bandit26. Use the setuid binary in the home directory to read the next password.',
  27: 'There is a git repository at ssh://bandit27-git@localhost/home/bandit27-git/repo on port 2220. Clone it and find the password.',
  28: 'There is a git repository at ssh://bandit28-git@localhost/home/bandit28-git/repo on port 2220. Clone it; look at its history.',
  29: 'There is a git repository at ssh://bandit29-git@localhost/home/bandit29-git/repo on port 2220. Clone it; look at its branches.',
  30: 'There is a git repository at ssh://bandit30-git@localhost/home/bandit30-git/repo on port 2220. Clone it; look at its tags.',
  31: 'There is a git repository at ssh://bandit31-git@localhost/home/bandit31-git/repo on port 2220. Clone it and push the file it asks for.',
  32: 'After all this git stuff, it is time for another escape: the shell converts everything you type to uppercase.',
  33: 'There is no level 34 yet; reaching bandit33 finishes the game.',
};
