CORE_SRCS += src/report/report_model.c src/report/report_supp.c src/report/report_text.c \
             src/report/report_json.c src/report/report_sarif.c
UNIT_TESTS += test_report
