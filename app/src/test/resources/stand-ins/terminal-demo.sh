#!/usr/bin/env bash
# For the browser terminal tests: 200 numbered lines (scrollback), colour in three forms, a link,
# then a line loop: "size" prints the PTY size, "colour" prints a truecolour line, anything else
# is echoed back.
for i in $(seq 1 200); do echo "line $i"; done
printf '\033[38;5;196mRED256\033[0m \033[38;2;10;200;30mTRUE\033[0m \033[48;5;21mBLUEBG\033[0m\n'
[[ -n ${DEMO_LINK:-} ]] && echo "see $DEMO_LINK for details"
echo ready
while IFS= read -r line; do
  case $line in
    size) echo "size: $(stty size)" ;;
    colour) printf '\033[38;2;250;128;114mSALMON\033[0m\n' ;;
    *) echo "You said: $line" ;;
  esac
done
