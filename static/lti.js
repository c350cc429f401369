// The deep-linking answer goes back to the LMS at once; the button does it without scripts.
document.getElementById("lti-return")?.submit();
